package tagjson_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/tagjson"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// leaf and node are a small tree of model types as the SDK writes them:
// tags, Extra, and MarshalJSON/UnmarshalJSON through an Object.
type leaf struct {
	On    bool                       `json:"on"`
	Name  string                     `json:"name,omitzero"`
	Codes []string                   `json:"codes,omitzero"`
	Extra map[string]json.RawMessage `json:"-"`
}

var leafObject = tagjson.ObjectOf[leaf]().WithAlias("code", "codes")

func (l leaf) MarshalJSON() ([]byte, error) {
	type plain leaf
	return leafObject.Marshal((*plain)(&l), l.Extra)
}

func (l *leaf) UnmarshalJSON(data []byte) error { return leafObject.Unmarshal(data, l, "") }

type node struct {
	Kind   string                     `json:"kind"`
	Leaves []leaf                     `json:"leaves,omitzero"`
	One    *leaf                      `json:"one,omitzero"`
	Extra  map[string]json.RawMessage `json:"-"`
	hidden int
}

var nodeObject = tagjson.ObjectOf[node]().WithPlain(reflect.TypeFor[leaf]())

func (n node) MarshalJSON() ([]byte, error) {
	type plain node
	return nodeObject.Marshal((*plain)(&n), n.Extra)
}

func (n *node) UnmarshalJSON(data []byte) error { return nodeObject.Unmarshal(data, n, "root") }

func TestKeys(t *testing.T) {
	require.Equal(t, []string{"on", "name", "codes"}, leafObject.Keys())
	require.Equal(t, "codes", leafObject.Key("Codes"))
	require.Panics(t, func() { leafObject.Key("Extra") }, "a field without a key is a mistake in the caller's code")
	require.Equal(t, []string{"on", "name", "codes", "code", "kind", "leaves", "one"}, tagjson.KeysOf(leafObject, nodeObject))
}

func TestUnmarshal(t *testing.T) {
	var n node
	require.NoError(t, json.Unmarshal([]byte(`{"kind":"k","leaves":[{"on":true,"code":["a"],"x":1},{"on":false,"On":true}],"one":null,"Kind":"K","z":[]}`), &n))
	require.Equal(t, node{Kind: "k", Leaves: []leaf{
		{On: true, Codes: []string{"a"}, Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}},
		{Extra: map[string]json.RawMessage{"On": json.RawMessage(`true`)}},
	}, Extra: map[string]json.RawMessage{"Kind": json.RawMessage(`"K"`), "z": json.RawMessage(`[]`)}}, n,
		"keys match case-exactly (encoding/json alone would take Kind and On), the alias counts as its key, null is absent")

	out, err := json.Marshal(n)
	require.NoError(t, err)
	require.Equal(t, `{"kind":"k","leaves":[{"on":true,"codes":["a"],"x":1},{"on":false,"On":true}],"Kind":"K","z":[]}`, string(out))

	kept := node{Kind: "kept"}
	require.NoError(t, json.Unmarshal([]byte(` null `), &kept))
	require.Equal(t, node{Kind: "kept"}, kept, "null leaves the value")
}

func TestUnmarshalProblems(t *testing.T) {
	tests := []struct{ in, path, message string }{
		{`[]`, "root", "must be a JSON object, got an array"},
		{`{}`, "root.kind", `missing required key "kind"`},
		{`{"KIND":"k"}`, "root.kind", `missing required key "kind" (found "KIND"; keys are case sensitive)`},
		{`{"kind":null}`, "root.kind", "required, got null"},
		{`{"kind":1}`, "root.kind", "must be a string, got a number"},
		{`{"kind":"k","leaves":{}}`, "root.leaves", "must be an array, got an object"},
		{`{"kind":"k","leaves":[{"on":true},{"on":true,"codes":["a",2]}]}`, "root.leaves[1].codes[1]", "must be a string, got a number"},
		{`{"kind":"k","leaves":[{"on":true},"x"]}`, "root.leaves[1]", "must be a JSON object, got a string"},
		{`{"kind":"k","one":{"on":"yes"}}`, "root.one.on", "must be a boolean, got a string"},
		{`{"kind":"k","one":{"on":true,"name":""}}`, "root.one.name", "empty string: leave the key out instead"},
		{`{"kind":"k","one":{"on":true,"code":[],"codes":[]}}`, "root.one.code", `both "codes" and "code" are given; send only "codes"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			n := node{Kind: "before"}
			err := json.Unmarshal([]byte(tt.in), &n)
			wiretest.RequireProblem(t, err, tt.path, tt.message)
			require.Equal(t, node{Kind: "before"}, n, "an error leaves the value")
		})
	}
	wiretest.RequireProblem(t, (*node)(nil).UnmarshalJSON([]byte(`{}`)), "root", "nil pointer")
	wiretest.RequireProblem(t, nodeObject.Unmarshal([]byte(`{}`), &leaf{}, "x"), "x", "cannot decode into *tagjson_test.leaf")
}

func TestMarshalExtra(t *testing.T) {
	l := leaf{On: true, Extra: map[string]json.RawMessage{"b": json.RawMessage(` [ 1 ] `), "a": json.RawMessage(`"<"`),
		"codes": json.RawMessage(`["x"]`), "code": json.RawMessage(`["y"]`)}}
	out, err := json.Marshal(l)
	require.NoError(t, err)
	require.Equal(t, `{"on":true,"a":"\u003c","b":[1]}`, string(out), "after the declared keys, sorted, compacted; modelled keys left out")

	l.Extra = map[string]json.RawMessage{"bad": json.RawMessage(`{`)}
	_, err = json.Marshal(l)
	require.Error(t, err)

	type empty struct {
		Extra map[string]json.RawMessage `json:"-"`
	}
	o := tagjson.ObjectOf[empty]()
	out, err = o.Marshal(&empty{}, map[string]json.RawMessage{"k": json.RawMessage(`1`)})
	require.NoError(t, err)
	require.Equal(t, `{"k":1}`, string(out))
}

// TestPlainEqualsPerLevel: the one-pass encoding and the per-level one give
// the same bytes, and an Extra key below the top switches to the latter.
func TestPlainEqualsPerLevel(t *testing.T) {
	n := node{Kind: "<k>", Leaves: []leaf{{On: true, Codes: []string{"a", "b"}}, {Name: "n"}}, One: &leaf{On: true}, hidden: 7}
	onePass, err := json.Marshal(n)
	require.NoError(t, err)
	require.Equal(t, `{"kind":"\u003ck\u003e","leaves":[{"on":true,"codes":["a","b"]},{"on":false,"name":"n"}],"one":{"on":true}}`, string(onePass))

	n.One.Extra = map[string]json.RawMessage{"x": json.RawMessage(`1`)}
	perLevel, err := json.Marshal(n)
	require.NoError(t, err)
	require.Equal(t, strings.Replace(string(onePass), `"one":{"on":true}`, `"one":{"on":true,"x":1}`, 1), string(perLevel))

	n.One.Extra = nil
	n.Extra = map[string]json.RawMessage{"top": json.RawMessage(`true`)}
	top, err := json.Marshal(n)
	require.NoError(t, err)
	require.Equal(t, strings.TrimSuffix(string(onePass), "}")+`,"top":true}`, string(top))
}

func TestCheckExtra(t *testing.T) {
	var c valid.Collector
	leafObject.CheckExtra(&c, "p", map[string]json.RawMessage{
		"on":    json.RawMessage(`true`),
		"code":  json.RawMessage(`[]`),
		"bad":   json.RawMessage(`{`),
		"ON":    json.RawMessage(`true`),
		"Code":  json.RawMessage(`[]`),
		"KIND":  json.RawMessage(`"k"`),
		"other": json.RawMessage(`1`),
	}, "a leaf", tagjson.KeysOf(leafObject, nodeObject))
	var ve *valid.Error
	require.ErrorAs(t, c.Err(), &ve)
	require.Equal(t, []valid.Problem{
		{Path: "p.Code", Message: `unknown key: keys are case sensitive, did you mean "code"?`},
		{Path: "p.KIND", Message: `key "kind" does not belong in a leaf`},
		{Path: "p.ON", Message: `unknown key: keys are case sensitive, did you mean "on"?`},
		{Path: "p.bad", Message: "value is not valid JSON"},
		{Path: "p.code", Message: "is a modelled key: set the field instead of Extra"},
		{Path: "p.on", Message: "is a modelled key: set the field instead of Extra"},
	}, ve.Problems)
}

func TestCaseMistake(t *testing.T) {
	require.Equal(t, `unknown type "card": values are case sensitive, did you mean "CARD"?`, tagjson.CaseMistake("type", "card", "UPI", "CARD"))
	require.Equal(t, "", tagjson.CaseMistake("type", "CARD", "UPI", "CARD"), "the value itself is no mistake")
	require.Equal(t, "", tagjson.CaseMistake("type", "CRYPTO", "UPI", "CARD"))
}

func TestKindOf(t *testing.T) {
	for in, want := range map[string]string{``: "nothing", ` {}`: "an object", `[1]`: "an array", `"s"`: "a string",
		`true`: "a boolean", `null`: "null", `-1`: "a number"} {
		require.Equal(t, want, tagjson.KindOf([]byte(in)), in)
	}
}
