package productsummary

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/validation"
)

// wireTypes are the types whose json tags spell every key of an item.
var wireTypes = []any{typeKey{}, Space{}, Text{}, Image{}, ToggleImage{}, Divider{}, Background{}}

// tagKeys returns the json keys of t's fields, read from their tags.
func tagKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// pathShape splits a problem path into its indexes and its last key:
// "product_summary[2][0].color", "[1].type" (a Line on its own) or
// "thickness" (an item on its own).
var pathShape = regexp.MustCompile(`^(?:` + rootPath + `)?((?:\[\d+\])*)(?:\.?([^.\[\]]+))?$`)

// requireRealKey fails unless path is made of indexes and at most one key
// that an item type's json tag spells.
func requireRealKey(t *testing.T, real map[string]bool, path, context string) string {
	t.Helper()
	m := pathShape.FindStringSubmatch(path)
	require.NotNil(t, m, "%s: path %q is not product_summary, [i] indexes and one key", context, path)
	require.True(t, m[2] == "" || real[m[2]], "%s: path %q names %q, which no json tag of the item types spells", context, path, m[2])
	return m[2]
}

// TestProblemPathsNameRealKeys: every problem path Validate, MarshalJSON
// and the decoder build names a key that the item types' json tags spell,
// so a typo in the key written at a rule fails here. The corpus triggers
// every rule at least once; the test checks that every field of every
// kind got a problem from Validate and from the decoder. An unknown key is
// not in it: its DecodeError names the key the input spelt, by design.
func TestProblemPathsNameRealKeys(t *testing.T) {
	real := map[string]bool{}
	for _, v := range wireTypes {
		for _, k := range tagKeys(reflect.TypeOf(v)) {
			real[k] = true
		}
	}
	const icon = "https://cdn.example.com/i.png"
	invalid := Summary{
		{nil, (*Text)(nil)},
		{Space{Weight: -1, Width: math.NaN()}, Space{Weight: math.Inf(1), Width: -2}},
		{Text{Text: "\xff", Color: "red", TextSize: -1, FontType: "\xff"}, Text{TextSize: math.NaN()}},
		{Image{}, Image{URL: "/a.png", Size: -1}, Image{URL: icon, Size: math.Inf(-1)}},
		{ToggleImage{OpenIcon: "x", CloseIcon: "ftp://x.example/", Size: -1}, ToggleImage{Size: math.NaN()}},
		{Divider{}, Divider{Thickness: -1, Color: "#12"}, Divider{Thickness: math.Inf(1)}},
		{Background{}, Background{Color: "blue"}},
	}

	// Validate: every problem, and which fields of which kind they hit.
	validated := map[Kind]map[string]bool{}
	var ve *validation.Error
	require.ErrorAs(t, invalid.Validate(), &ve)
	for _, p := range ve.Problems {
		key := requireRealKey(t, real, p.Path, "Validate")
		var i, j int
		_, err := fmt.Sscanf(p.Path, rootPath+"[%d][%d]", &i, &j)
		require.NoError(t, err, p.Path)
		if it := concrete(invalid[i][j]); it != nil {
			if validated[it.Kind()] == nil {
				validated[it.Kind()] = map[string]bool{}
			}
			validated[it.Kind()][key] = true
		}
	}

	// MarshalJSON: what JSON cannot carry, item by item.
	for i, l := range invalid {
		for j, it := range l {
			_, err := Summary{{it}}.MarshalJSON()
			if err == nil {
				continue
			}
			require.ErrorAs(t, err, &ve, "[%d][%d]", i, j)
			for _, p := range ve.Problems {
				requireRealKey(t, real, p.Path, "MarshalJSON")
			}
		}
	}

	// The decoder: a value of the wrong JSON kind at every key of every
	// kind, then every problem that is not about one key.
	decoded := map[Kind]map[string]bool{}
	var texts []string
	for _, v := range wireTypes[1:] {
		kind := v.(Item).Kind()
		decoded[kind] = map[string]bool{}
		for f := range reflect.TypeOf(v).Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			bad := `true`
			if f.Type.Kind() == reflect.Float64 {
				bad = `"wide"`
			}
			texts = append(texts, `[[{"type":"`+string(kind)+`","`+key+`":`+bad+`}]]`)
		}
	}
	texts = append(texts,
		`{}`, `null`, `"null"`, `"[1`, `[[{"type":"space"}]`, `"[1"`, `[{}]`, `[["space"]]`,
		`[[{"text":"a"}]]`, `[[{"type":null}]]`, `[[{"type":1}]]`, `[[{"type":"button"}]]`,
		`[[{"type":"divider","thickness":0}]]`, `[[{"type":"space","weight":"0"}]]`,
		`[[{"type":"divider","thickness":1e999}]]`, `[[{"type":"divider","thickness":1,"color":""}]]`,
		`[[{"type":"text","text":"a","color":""}]]`, `[[{"type":"text","text":"a","fontType":""}]]`,
	)
	for _, text := range texts {
		_, err := Parse(text)
		var de *DecodeError
		require.ErrorAs(t, err, &de, text)
		key := requireRealKey(t, real, de.Path, "decode "+text)
		require.NotContains(t, de.Message, "unknown key", "%s: the decoder reads every key the tags spell", text)
		var kind struct {
			Type Kind `json:"type"`
		}
		var tree [][]json.RawMessage
		if json.Unmarshal([]byte(text), &tree) == nil && key != "" && key != keyType &&
			json.Unmarshal(tree[de.Line][de.Item], &kind) == nil && decoded[kind.Type] != nil {
			decoded[kind.Type][key] = true
		}
	}
	for _, text := range []string{`[{"type":"space"},{"type":"nope"}]`, `[{"type":"space","width":0}]`, `{}`} {
		var l Line
		var de *DecodeError
		require.True(t, errors.As(l.UnmarshalJSON([]byte(text)), &de), text)
		requireRealKey(t, real, de.Path, "Line "+text)
	}
	var d Divider
	var de *DecodeError
	require.ErrorAs(t, d.UnmarshalJSON([]byte(`{"type":"divider","thickness":"0"}`)), &de)
	requireRealKey(t, real, de.Path, "Divider")

	// Every field of every kind had a rule of Validate and of the decoder
	// applied.
	for _, v := range wireTypes[1:] {
		kind := v.(Item).Kind()
		for _, key := range tagKeys(reflect.TypeOf(v)) {
			require.True(t, validated[kind][key], "no Validate problem at %s.%s: the corpus misses a rule", kind, key)
			require.True(t, decoded[kind][key], "no decode problem at %s.%s: the corpus misses a key", kind, key)
		}
	}
}
