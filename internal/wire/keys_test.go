package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

func TestCheckExtra(t *testing.T) {
	own := []string{"enable", "cardBrands"}
	aliases := []string{"cardBrand"}
	elsewhere := []string{"upiMethods", "options"}
	extra := map[string]json.RawMessage{
		"enable":      json.RawMessage(`true`),
		"cardBrand":   json.RawMessage(`[]`),
		"bad":         json.RawMessage(`{`),
		"Enable":      json.RawMessage(`true`),
		"UPIMethods":  json.RawMessage(`[]`),
		"cardBrandss": json.RawMessage(`[]`),
		"custom":      json.RawMessage(`1`),
	}
	var c valid.Collector
	wire.CheckExtra(&c, "f", extra, own, aliases, elsewhere, "a card filter")
	var ve *valid.Error
	require.ErrorAs(t, c.Err(), &ve)
	require.Equal(t, []valid.Problem{
		{Path: "f.Enable", Message: `unknown key: keys are case sensitive, did you mean "enable"?`},
		{Path: "f.UPIMethods", Message: `key "upiMethods" does not belong in a card filter`},
		{Path: "f.bad", Message: "value is not valid JSON"},
		{Path: "f.cardBrand", Message: "is a modelled key: set the field instead of Extra"},
		{Path: "f.cardBrandss", Message: `unknown key: did you mean "cardBrands"?`},
		{Path: "f.enable", Message: "is a modelled key: set the field instead of Extra"},
	}, ve.Problems)

	var none valid.Collector
	wire.CheckExtra(&none, "f", nil, own, aliases, elsewhere, "x")
	require.NoError(t, none.Err())
}

func TestMatches(t *testing.T) {
	list := []string{"upi", "cardBanks", "paymentMethods"}
	require.Equal(t, "cardBanks", wire.FoldMatch(list, "CARDBANKS"))
	require.Equal(t, "", wire.FoldMatch(list, "cardBank"))
	require.Equal(t, "cardBanks", wire.NearMatch(list, "cardbank"))
	require.Equal(t, "paymentMethods", wire.NearMatch(list, "PaymentMetods"))
	require.Equal(t, "", wire.NearMatch(list, "up"), "short keys are not matched by distance")
	require.Equal(t, "", wire.NearMatch(list, "cardBrandsXYZ"))
	require.Equal(t, "", wire.NearMatch([]string{"paymentMethods"}, string(make([]byte, 65))), "long input is far")
}

func TestUnion(t *testing.T) {
	require.Equal(t, []string{"a", "b", "c"}, wire.Union([]string{"a", "b"}, nil, []string{"b", "c", "a"}))
	require.Nil(t, wire.Union())
}
