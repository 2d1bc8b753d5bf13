package wiretest

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/payorch/checkout-go/validation"
)

// pathSegment is one segment of a problem path: a key, then any indexes.
var pathSegment = regexp.MustCompile(`^([^.\[\]]+)((\[\d+\])*)$`)

// RequirePathsNameKeys fails tb unless err is a *validation.Error whose
// every problem path starts at root and continues with keys in keys (each
// followed by any indexes): the check, one per package, that no rule
// names a key the types do not send. name says which case failed.
func RequirePathsNameKeys(tb testing.TB, name string, err error, root string, keys map[string]bool) {
	tb.Helper()
	var ve *validation.Error
	if !errors.As(err, &ve) || len(ve.Problems) == 0 {
		tb.Fatalf("%s: want a *validation.Error with problems, got %v", name, err)
	}
	for _, p := range ve.Problems {
		rest, ok := strings.CutPrefix(p.Path, root)
		if !ok || (rest != "" && !strings.HasPrefix(rest, ".")) {
			tb.Fatalf("%s: path %q does not start at %s", name, p.Path, root)
		}
		if rest == "" {
			continue
		}
		for _, s := range strings.Split(rest[1:], ".") {
			m := pathSegment.FindStringSubmatch(s)
			if m == nil {
				tb.Fatalf("%s: path %q has a malformed segment %q", name, p.Path, s)
			}
			if !keys[m[1]] {
				tb.Fatalf("%s: path %q names %q, which is no key under %s (%s)", name, p.Path, m[1], root, p.Message)
			}
		}
	}
}

// Keys returns every object key anywhere in the JSON text data, at any
// depth; none when data is not JSON.
func Keys(data []byte) map[string]bool {
	keys := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				keys[k] = true
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var v any
	if json.Unmarshal(data, &v) == nil {
		walk(v)
	}
	return keys
}
