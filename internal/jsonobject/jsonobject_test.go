package jsonobject_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

// card is a small model type decoded the way the filter types are.
type card struct {
	Enable bool
	Kind   string
	Brands []string
	Items  []card
	Extra  map[string]json.RawMessage
}

func (c *card) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	c.Enable = jsonobject.Value[bool](obj.Required("enable"), jsonobject.ABoolean)
	c.Kind = jsonobject.Text[string](obj.Take("kind"))
	c.Brands = jsonobject.List[string](obj.Either("brands", "brand"))
	c.Items = jsonobject.Objects(obj.Take("items"), (*card).decode)
	c.Extra = obj.Rest()
}

func decode(t *testing.T, in string) (card, error) {
	t.Helper()
	var c card
	err := jsonobject.Unmarshal(&c, []byte(in), "root", (*card).decode)
	return c, err
}

// TestDecode: keys are case exact, the other spelling counts, null counts
// as absent, and the keys not read are kept.
func TestDecode(t *testing.T) {
	c, err := decode(t, `{"enable":true,"brand":["VISA"],"Kind":"x","kind":null,"items":[{"enable":false}],"z":[1]}`)
	require.NoError(t, err)
	require.Equal(t, card{Enable: true, Brands: []string{"VISA"}, Items: []card{{}},
		Extra: map[string]json.RawMessage{"Kind": json.RawMessage(`"x"`), "z": json.RawMessage(`[1]`)}}, c)

	c = card{Kind: "kept"}
	require.NoError(t, jsonobject.Unmarshal(&c, []byte(` null `), "root", (*card).decode))
	require.Equal(t, card{Kind: "kept"}, c, "null leaves the value")
	require.ErrorContains(t, jsonobject.Unmarshal((*card)(nil), []byte(`{}`), "root", (*card).decode), "root: cannot decode into a nil pointer")
}

// TestDecodeProblems: every problem, at its JSON path, in the order of the
// keys read.
func TestDecodeProblems(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[]`, "root: must be a JSON object, got an array"},
		{`{"Enable":true}`, `root.enable: missing required key "enable" (found "Enable"; keys are case sensitive)`},
		{`{"enable":null}`, "root.enable: required, got null"},
		{`{"enable":"yes","kind":""}`, "root.enable: must be a boolean, got a string; root.kind: empty string: leave the key out instead"},
		{`{"enable":true,"brands":["A"],"brand":["B"]}`, `root.brand: both "brands" and "brand" are given; send only "brands"`},
		{`{"enable":true,"brand":["A",7]}`, "root.brand[1]: must be a string, got a number"},
		{`{"enable":true,"brands":{}}`, "root.brands: must be an array, got an object"},
		{`{"enable":true,"items":[{"enable":true},{"kind":3}]}`, `root.items[1].enable: missing required key "enable"; root.items[1].kind: must be a string, got a number`},
	}
	for _, tt := range tests {
		c, err := decode(t, tt.in)
		require.EqualError(t, err, "checkout: validate: invalid request: "+tt.want, tt.in)
		require.Zero(t, c, "an error leaves the value")
	}
}

// TestAppendExtra: Extra keys follow the modelled ones, sorted and
// compacted; modelled keys are left out; a value that is not JSON is an
// error.
func TestAppendExtra(t *testing.T) {
	extra := map[string]json.RawMessage{"z": json.RawMessage(`[1, 2]`), "a": json.RawMessage(`"<"`), "enable": json.RawMessage(`false`)}
	b, err := jsonobject.AppendExtra([]byte(`{"enable":true}`), extra, []string{"enable"})
	require.NoError(t, err)
	require.Equal(t, `{"enable":true,"a":"\u003c","z":[1,2]}`, string(b))
	b, err = jsonobject.AppendExtra([]byte(`{}`), extra, []string{"enable"})
	require.NoError(t, err)
	require.Equal(t, `{"a":"\u003c","z":[1,2]}`, string(b))
	_, err = jsonobject.AppendExtra([]byte(`{}`), map[string]json.RawMessage{"x": json.RawMessage(`nope`)}, nil)
	require.Error(t, err)
}

// TestCheckExtra: what an Extra key cannot mean, in key order.
func TestCheckExtra(t *testing.T) {
	var e validation.Error
	extra := map[string]json.RawMessage{
		"enable": json.RawMessage(`true`), "Brands": json.RawMessage(`[]`), "x": json.RawMessage(`{`),
		"tenures": json.RawMessage(`[]`), "futureSwitch": json.RawMessage(`1`),
	}
	jsonobject.CheckExtra(&e, "p", extra, []string{"enable", "brands"}, "a card", func() []string { return []string{"tenures"} })
	require.Equal(t, []validation.Problem{
		{Path: "p.Brands", Message: `unknown key: keys are case sensitive, did you mean "brands"?`},
		{Path: "p.enable", Message: "is a modelled key: set the field instead of Extra"},
		{Path: "p.tenures", Message: `key "tenures" does not belong in a card`},
		{Path: "p.x", Message: "value is not valid JSON"},
	}, e.Problems)
}

// TestCaseMistakeAndClone: the message for a known value in another case;
// a clone of Extra shares no bytes and keeps nil nil.
func TestCaseMistakeAndClone(t *testing.T) {
	require.Equal(t, `unknown card type "credit": values are case sensitive, did you mean "CREDIT"?`,
		jsonobject.CaseMistake("card type", "credit", []string{"DEBIT", "CREDIT"}))
	require.Empty(t, jsonobject.CaseMistake("card type", "CREDIT", []string{"CREDIT"}))
	require.Empty(t, jsonobject.CaseMistake("card type", "PREPAID", []string{"CREDIT"}))

	require.Nil(t, jsonobject.CloneExtra(nil))
	src := map[string]json.RawMessage{"a": json.RawMessage(`1`)}
	c := jsonobject.CloneExtra(src)
	c["a"][0] = '2'
	require.Equal(t, `1`, string(src["a"]))
}

// TestUnknown: a likely typo names the closest known value; another
// unknown value of a closed set lists the set; known values, case
// mistakes and empty values get no advice.
func TestUnknown(t *testing.T) {
	methods := []string{"CARD", "UPI", "WALLET", "NB", "CONSUMER_FINANCE", "WALLETS"}
	tests := []struct {
		s      string
		closed bool
		want   string
	}{
		{"WALLLET", false, `unknown method "WALLLET": likely a typo, did you mean "WALLET"?`},
		{"walet", false, `unknown method "walet": likely a typo, did you mean "WALLET"?`},
		{"CONSUMERFINANSE", false, `unknown method "CONSUMERFINANSE": likely a typo, did you mean "CONSUMER_FINANCE"?`},
		{"UIP", false, `unknown method "UIP": likely a typo, did you mean "UPI"?`},
		{"CRYPTO", false, ""},
		{"CRYPTO", true, `unknown method "CRYPTO": the service documents CARD, UPI, WALLET, NB, CONSUMER_FINANCE, WALLETS only`},
		{"WALLETS", false, ""},
		{"wallet", true, ""},
		{"", true, ""},
		{"CASH", false, ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, jsonobject.Unknown("method", tt.s, methods, tt.closed), tt.s)
	}
	require.Equal(t, `unknown x "`+strings.Repeat("A", 40)+`": the service documents B only`,
		jsonobject.Unknown("x", strings.Repeat("A", 100), []string{"B"}, true), "at most 40 characters of the value")
}
