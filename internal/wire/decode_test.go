package wire_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// problem returns the one problem of err, a *valid.Error.
func problem(t *testing.T, err error) valid.Problem {
	t.Helper()
	var ve *valid.Error
	require.True(t, errors.As(err, &ve), "want a *valid.Error, got %T %v", err, err)
	require.Len(t, ve.Problems, 1)
	return ve.Problems[0]
}

func TestKindOf(t *testing.T) {
	for in, want := range map[string]string{
		``: "nothing", `  `: "nothing", ` {}`: "an object", `[1]`: "an array", `"s"`: "a string",
		`true`: "a boolean", `false`: "a boolean", ` null `: "null", `-1`: "a number", `3e2`: "a number",
	} {
		require.Equal(t, want, wire.KindOf([]byte(in)), "%q", in)
	}
}

func TestIsNull(t *testing.T) {
	require.True(t, wire.IsNull([]byte(" null\n")))
	require.False(t, wire.IsNull([]byte(`"null"`)))
	require.False(t, wire.IsNull(nil))
}

func TestNewObjectRefusesOtherKinds(t *testing.T) {
	tests := []struct{ in, message string }{
		{`[]`, "must be a JSON object, got an array"},
		{``, "must be a JSON object, got nothing"},
		{`{"a":}`, "not valid JSON: "},
	}
	for _, tt := range tests {
		_, err := wire.NewObject([]byte(tt.in), "root.x")
		p := problem(t, err)
		require.Equal(t, "root.x", p.Path)
		require.Contains(t, p.Message, tt.message)
	}
}

// TestObjectGetters: each getter's value and the first problem it records,
// with its path below the object's.
func TestObjectGetters(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		read    func(o *wire.Object) any
		want    any
		path    string // "" when no problem is expected
		message string
	}{
		{"required bool", `{"enable":true}`, func(o *wire.Object) any { return o.RequiredBool("enable") }, true, "", ""},
		{"required bool absent", `{}`, func(o *wire.Object) any { return o.RequiredBool("enable") }, false,
			"p.enable", `missing required key "enable"`},
		{"required bool mis-cased", `{"Enable":true}`, func(o *wire.Object) any { return o.RequiredBool("enable") }, false,
			"p.enable", `missing required key "enable" (found "Enable"; keys are case sensitive)`},
		{"required bool null", `{"enable":null}`, func(o *wire.Object) any { return o.RequiredBool("enable") }, false,
			"p.enable", "required, got null"},
		{"required bool of a string", `{"enable":"true"}`, func(o *wire.Object) any { return o.RequiredBool("enable") }, false,
			"p.enable", "must be a boolean, got a string"},
		{"optional bool absent", `{}`, func(o *wire.Object) any { return o.OptionalBool("show") }, (*bool)(nil), "", ""},
		{"optional bool null", `{"show":null}`, func(o *wire.Object) any { return o.OptionalBool("show") }, (*bool)(nil), "", ""},
		{"optional bool false", `{"show":false}`, func(o *wire.Object) any { return *o.OptionalBool("show") }, false, "", ""},
		{"optional string", `{"s":"x<"}`, func(o *wire.Object) any { return o.OptionalString("s") }, "x<", "", ""},
		{"optional string empty", `{"s":""}`, func(o *wire.Object) any { return o.OptionalString("s") }, "",
			"p.s", "empty string: leave the key out instead"},
		{"optional string of a list", `{"s":["x"]}`, func(o *wire.Object) any { return o.OptionalString("s") }, "",
			"p.s", "must be a string, got an array"},
		{"string value empty allowed", `{"s":""}`, func(o *wire.Object) any {
			raw, _ := o.Take("s")
			return o.StringValue("s", raw, true)
		}, "", "", ""},
		{"strings", `{"l":["a",""]}`, func(o *wire.Object) any {
			raw, _ := o.Take("l")
			return o.Strings("l", raw)
		}, []string{"a", ""}, "", ""},
		{"strings empty is non-nil", `{"l":[]}`, func(o *wire.Object) any {
			raw, _ := o.Take("l")
			return o.Strings("l", raw)
		}, []string{}, "", ""},
		{"strings with a number", `{"l":["a",3]}`, func(o *wire.Object) any {
			raw, _ := o.Take("l")
			return o.Strings("l", raw)
		}, []string(nil), "p.l[1]", "must be a string, got a number"},
		{"array of an object", `{"l":{}}`, func(o *wire.Object) any {
			raw, _ := o.Take("l")
			return o.Array("l", raw)
		}, []json.RawMessage(nil), "p.l", "must be an array, got an object"},
		{"alias", `{"cardBin":["1"]}`, func(o *wire.Object) any {
			raw, ok := o.TakeAlias("cardBins", "cardBin")
			return []any{string(raw), ok}
		}, []any{`["1"]`, true}, "", ""},
		{"alias and key", `{"cardBin":[],"cardBins":[]}`, func(o *wire.Object) any {
			_, ok := o.TakeAlias("cardBins", "cardBin")
			return ok
		}, false, "p.cardBin", `both "cardBins" and "cardBin" are given; send only "cardBins"`},
		{"first problem kept", `{"a":1,"b":2}`, func(o *wire.Object) any {
			return []any{o.RequiredBool("a"), o.OptionalString("b")}
		}, []any{false, ""}, "p.a", "must be a boolean, got a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := wire.NewObject([]byte(tt.in), "p")
			require.NoError(t, err)
			require.Equal(t, tt.want, tt.read(o))
			if tt.path == "" {
				require.NoError(t, o.Err)
				return
			}
			p := problem(t, o.Err)
			require.Equal(t, tt.path, p.Path)
			require.Equal(t, tt.message, p.Message)
		})
	}
}

// TestObjectExtra: what nobody took is Extra; a taken null is gone too.
func TestObjectExtra(t *testing.T) {
	o, err := wire.NewObject([]byte(`{"a":1,"b":null,"c":{"d":2}}`), "")
	require.NoError(t, err)
	_, ok := o.Take("b")
	require.False(t, ok, "null counts as absent")
	_, ok = o.Take("a")
	require.True(t, ok)
	require.Equal(t, map[string]json.RawMessage{"c": json.RawMessage(`{"d":2}`)}, o.Extra())
	_, _ = o.Take("c")
	require.Nil(t, o.Extra())
}

type pair struct {
	A    bool
	Path string
}

func decodePair(data []byte, path string) (*pair, error) {
	o, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	return &pair{A: o.RequiredBool("a"), Path: path}, o.Err
}

func TestChildAndList(t *testing.T) {
	o, err := wire.NewObject([]byte(`{"one":{"a":true},"list":[{"a":true},{"a":false}],"none":null,"empty":[]}`), "root")
	require.NoError(t, err)
	require.Equal(t, &pair{A: true, Path: "root.one"}, wire.Child(o, "one", decodePair))
	require.Nil(t, wire.Child(o, "none", decodePair))
	require.Equal(t, []pair{{true, "root.list[0]"}, {false, "root.list[1]"}}, wire.List(o, "list", decodePair))
	require.Equal(t, []pair{}, wire.List(o, "empty", decodePair))
	require.Nil(t, wire.List(o, "absent", decodePair))
	require.NoError(t, o.Err)

	// The first bad element stops the list and is the object's problem.
	o, err = wire.NewObject([]byte(`{"list":[{"a":true},{"a":1},{}],"one":{"a":true}}`), "root")
	require.NoError(t, err)
	wire.List(o, "list", decodePair)
	p := problem(t, o.Err)
	require.Equal(t, "root.list[1].a", p.Path)
	require.Nil(t, wire.Child(o, "one", decodePair), "nothing is decoded after a problem")
	require.Nil(t, o.Extra(), "the key is taken all the same")
}

func TestUnmarshal(t *testing.T) {
	v := pair{A: true, Path: "kept"}
	require.NoError(t, wire.Unmarshal(&v, []byte(" null "), "x", decodePair))
	require.Equal(t, pair{A: true, Path: "kept"}, v, "null leaves the value")

	err := wire.Unmarshal(&v, []byte(`{"a":"no"}`), "x", decodePair)
	require.Equal(t, "x.a", problem(t, err).Path)
	require.Equal(t, pair{A: true, Path: "kept"}, v, "an error leaves the value")

	require.NoError(t, wire.Unmarshal(&v, []byte(`{"a":false}`), "x", decodePair))
	require.Equal(t, pair{A: false, Path: "x"}, v)

	for _, data := range []string{`{"a":true}`, `null`} {
		err = wire.Unmarshal((*pair)(nil), []byte(data), "x", decodePair)
		require.Equal(t, "x", problem(t, err).Path, "a nil destination is an error, not a panic")
		require.Contains(t, problem(t, err).Message, "nil pointer")
	}
}
