package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/stretchr/testify/require"
)

func TestFilterPrintsTheBuildersJSON(t *testing.T) {
	r := cli(t, nil, "filter", "--hide", "WALLET,NB", "--hide-card-types", "CREDIT", "--hide-upi-handles", "@ybl",
		"--hide-methods", "CONSUMER_FINANCE:LAZYPAY,SIMPL", "--hide-bins", "459000::460000")
	require.Equal(t, 0, r.code, r.stderr)
	f := paymentfilter.New()
	f = f.Hide(paymentfilter.Wallet, paymentfilter.NB)
	f = f.HideCardTypes(paymentfilter.Credit)
	f = f.HideUPIHandles("@ybl")
	f = f.HideMethods(paymentfilter.ConsumerFinance, "LAZYPAY", "SIMPL")
	f = f.HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})
	want, err := json.Marshal(f)
	require.NoError(t, err)
	require.JSONEq(t, string(want), r.stdout)
	require.Contains(t, r.stdout, "\n  \"options\"", "indented by default")

	r = cli(t, nil, "filter", "--only", "UPI", "--hide-upi-handles", "@ybl", "--compact")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, 1, strings.Count(r.stdout, "\n"), "one line")
	var got struct {
		AllowDefaultOptions bool `json:"allowDefaultOptions"`
		Options             []struct {
			PaymentMethodType string `json:"paymentMethodType"`
			Enable            bool   `json:"enable"`
			UPIFilters        []struct {
				UPIType    string   `json:"upiType"`
				Enable     bool     `json:"enable"`
				UPIMethods []string `json:"upiMethods"`
			} `json:"upiFilters"`
		} `json:"options"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.False(t, got.AllowDefaultOptions, "only UPI")
	require.Len(t, got.Options, 1)
	require.Equal(t, "UPI", got.Options[0].PaymentMethodType)
	require.True(t, got.Options[0].Enable)
	require.Equal(t, []string{"@ybl"}, got.Options[0].UPIFilters[0].UPIMethods)
	require.False(t, got.Options[0].UPIFilters[0].Enable)

	// A filter the SDK refuses (a hidden CARD cannot carry card filters).
	r = cli(t, nil, "filter", "--hide", "CARD", "--hide-card-types", "CREDIT")
	require.Equal(t, 1, r.code)
	require.True(t, strings.HasPrefix(r.stderr, "checkout filter: "), r.stderr)
	require.Empty(t, r.stdout)
}

// TestFilterPrintsAdvice (issue 40.7): a filter the service takes but that
// is probably a mistake prints the library's advice on stderr, the JSON on
// stdout, and exits 0; --strict makes the advice a failure (exit 1,
// nothing on stdout). A filter without advice prints nothing on stderr.
func TestFilterPrintsAdvice(t *testing.T) {
	r := cli(t, nil, "filter", "--hide", "WALLLET")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "checkout filter: advice: payment_filter.options[0].paymentMethodType: unknown payment method type \"WALLLET\": likely a typo, did you mean \"WALLET\"?\n", r.stderr)
	require.Contains(t, r.stdout, `"paymentMethodType": "WALLLET"`, "sent as written: the service takes it")

	r = cli(t, nil, "filter", "--hide", "WALLLET", "--strict")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, `checkout filter: advice: payment_filter.options[0].paymentMethodType: unknown payment method type "WALLLET"`)
	require.Contains(t, r.stderr, "checkout filter: --strict: failing on the advice above")
	require.Empty(t, r.stdout)

	r = cli(t, nil, "filter", "--hide", "WALLET", "--strict")
	require.Equal(t, 0, r.code, r.stderr)
	require.Empty(t, r.stderr)
	require.Contains(t, r.stdout, `"paymentMethodType": "WALLET"`)

	r = cli(t, nil, "filter", "--only", "UPI", "--hide", "CASH", "--emi-remove-issuers", "noCostEmi.credit:ICICI")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, 2, strings.Count(r.stderr, "checkout filter: advice: "), r.stderr)
	require.Contains(t, r.stderr, "payment_filter.options[1]: has no effect: it hides CASH")
	require.Contains(t, r.stderr, `issuer "ICICI" has no namespace prefix`)
}
