package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wire"
)

// escapeSeeds are strings that exercise every branch of AppendString.
var escapeSeeds = []string{
	"", "plain", `q"b\s`, "<a>&", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é世界🙂", "\b\f\n\r\t",
	"a\xc3", "\xed\xa0\x80", "tail\u2029", "\x01x\x1e",
}

// TestAppendStringMatchesStdlib: the escaping is encoding/json's, byte for
// byte, for every branch of the escaper.
func TestAppendStringMatchesStdlib(t *testing.T) {
	for _, s := range escapeSeeds {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(wire.AppendString(nil, s)), "%q", s)
	}
}

// TestAppendStringAppends: the string is added after what b holds.
func TestAppendStringAppends(t *testing.T) {
	require.Equal(t, `x:"\u003cb\u003e"`, string(wire.AppendString([]byte("x:"), "<b>")))
}

// FuzzAppendString: the escaping is encoding/json's for any string.
func FuzzAppendString(f *testing.F) {
	for _, s := range escapeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := wire.AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestAppendKeyBoolStrings(t *testing.T) {
	b := wire.AppendKey([]byte("{"), "enable", true)
	b = wire.AppendBool(b, true)
	b = wire.AppendKey(b, "off", false)
	b = wire.AppendBool(b, false)
	b = wire.AppendKey(b, "list", false)
	b = wire.AppendStrings(b, []string{"a", "<"})
	b = wire.AppendKey(b, "empty", false)
	b = wire.AppendStrings(b, nil)
	require.Equal(t, `{"enable":true,"off":false,"list":["a","\u003c"],"empty":[]`, string(b))
}

// TestAppendExtra: unmodelled keys sorted, values compacted and escaped as
// encoding/json writes a json.RawMessage; bad JSON is an error.
func TestAppendExtra(t *testing.T) {
	extra := map[string]json.RawMessage{
		"zeta":   json.RawMessage(`{ "a" : [1, 2] }`),
		"alpha":  json.RawMessage(`"<b>&\u2028"`),
		"enable": json.RawMessage(`true`),
		"k<":     json.RawMessage(`null`),
	}
	tests := []struct {
		name  string
		first bool
		want  string
	}{
		{"after other keys", false, `,"alpha":"\u003cb\u003e\u0026\u2028","k\u003c":null,"zeta":{"a":[1,2]}`},
		{"first in the object", true, `"alpha":"\u003cb\u003e\u0026\u2028","k\u003c":null,"zeta":{"a":[1,2]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.AppendExtra(nil, extra, tt.first, []string{"enable"})
			require.NoError(t, err)
			require.Equal(t, tt.want, string(got))
		})
	}

	// The same map through encoding/json, modelled key removed.
	std := map[string]json.RawMessage{}
	for k, v := range extra {
		if k != "enable" {
			std[k] = v
		}
	}
	want, err := json.Marshal(std)
	require.NoError(t, err)
	got, err := wire.AppendExtra([]byte("{"), extra, true, []string{"enable"})
	require.NoError(t, err)
	require.Equal(t, string(want), string(append(got, '}')))

	got, err = wire.AppendExtra([]byte("x"), nil, false, nil)
	require.NoError(t, err)
	require.Equal(t, "x", string(got))

	_, err = wire.AppendExtra(nil, map[string]json.RawMessage{"bad": json.RawMessage(`{`)}, false, nil)
	require.ErrorContains(t, err, `Extra["bad"] is not valid JSON`)
}
