package wiretest

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// RequireSameFields fails tb unless wire, the method-free twin of real
// that a MarshalJSON encodes in one pass, declares real's encoded fields:
// the same names and tags in the same order.
func RequireSameFields(tb testing.TB, real, wire reflect.Type) {
	tb.Helper()
	var want, got []string
	for f := range real.Fields() {
		if f.IsExported() && f.Tag.Get("json") != "-" {
			want = append(want, f.Name+" "+string(f.Tag))
		}
	}
	for f := range wire.Fields() {
		got = append(got, f.Name+" "+string(f.Tag))
	}
	require.Equal(tb, want, got, "%s and %s", real, wire)
}
