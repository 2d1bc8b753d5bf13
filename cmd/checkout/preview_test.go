package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/paymentfilter"
)

// shownLine is an option the preview shows: two spaces, its value, its label.
var shownLine = regexp.MustCompile(`(?m)^  ([A-Z_]+:\S+)\s+\S`)

// shownValues are the values of the options a preview output shows.
func shownValues(out string) []string {
	var vs []string
	for _, m := range shownLine.FindAllStringSubmatch(out, -1) {
		vs = append(vs, m[1])
	}
	return vs
}

// visibleValues are the values of the options the page shows for f, as
// the page's own model says.
func visibleValues(f *paymentfilter.Filter, udf emi.Visibility) []string {
	var vs []string
	for _, o := range checkouttest.PreviewPage(f, udf).Visible() {
		vs = append(vs, o.Value)
	}
	return vs
}

func TestFilterPreviewShowsWhatThePageShows(t *testing.T) {
	r := cli(t, nil, "filter", "--preview", "--only", "CARD,UPI", "--hide-card-types", "CREDIT", "--show-upi-apps", "GPAY,PHONEPE")
	require.Equal(t, 0, r.code, r.stderr)
	f := paymentfilter.Only(paymentfilter.Card, paymentfilter.UPI).HideCardTypes(paymentfilter.Credit).ShowUPIApps("GPAY", "PHONEPE")
	require.Equal(t, visibleValues(f, ""), shownValues(r.stdout))
	require.Contains(t, r.stdout, "\nCards: 3 shown, 7 hidden\n")
	require.Contains(t, r.stdout, "  hidden, all 7: payment_filter.options[0].cardFilters[0] (enable: false) matches it\n")
	require.Contains(t, r.stdout, "\nUPI apps: 2 shown, 3 hidden\n  UPI:GPAY                                 Google Pay\n")
	require.Contains(t, r.stdout, "  hidden CASH:CASH: allowDefaultOptions is false and no option block for CASH selects it\n")
	require.Contains(t, r.stdout, "\nNotes:\n  - With allowDefaultOptions false, where enable: true entries exist")
	require.Empty(t, r.stderr)
}

func TestFilterPreviewOfAFile(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "session.json")
	require.NoError(t, os.WriteFile(session, []byte(`{"order_id": "o1", "sdk_udf": "ShowEMIWithoutCards",
		"payment_filter": {"allowDefaultOptions": true, "options": [{"paymentMethodType": "WALLET", "enable": false}]}}`), 0o600))

	r := cli(t, nil, "filter", "--preview", "--file", session, "--hide-bins", "459000::460000")
	require.Equal(t, 0, r.code, r.stderr)
	f := paymentfilter.New().Hide(paymentfilter.Wallet).HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})
	require.Equal(t, visibleValues(f, emi.ShowWithoutCards), shownValues(r.stdout))
	require.Contains(t, r.stdout, "hidden, all 10: sdk_udf ShowEMIWithoutCards: EMI is shown, the CARD method is not")
	require.Contains(t, r.stdout, "The filter names BIN ranges: the page asks for a card number")

	// --sdk-udf wins over the file's; without --preview the file's filter is printed as JSON.
	r = cli(t, nil, "filter", "--preview", "--file", session, "--sdk-udf", "hideEMI")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, visibleValues(paymentfilter.New().Hide(paymentfilter.Wallet), emi.Hide), shownValues(r.stdout))
	r = cli(t, nil, "filter", "--file", session, "--compact")
	require.Equal(t, 0, r.code, r.stderr)
	require.JSONEq(t, `{"allowDefaultOptions": true, "options": [{"paymentMethodType": "WALLET", "enable": false}]}`, r.stdout)

	// The service's published samples preview as they are.
	for _, s := range conformance.Files(t, "emi", "payment_filter_emi_nocost_remove_icici_tenure_9_12.json") {
		r = cli(t, nil, "filter", "--preview", "--file", s.Path)
		require.Equal(t, 0, r.code, r.stderr)
		require.Contains(t, r.stdout, "\nEMI (noCostEmi, credit): 10 shown, 2 hidden\n")
		require.Contains(t, r.stdout, "  hidden, all 2: payment_filter.emiOptions.noCostEmi.credit.filters[0] (enable: false) matches it\n")
	}
}

func TestFilterPreviewFailures(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "filter.json")
	require.NoError(t, os.WriteFile(notJSON, []byte(`allowDefaultOptions: true`), 0o600))
	for name, tc := range map[string]struct {
		args       []string
		code       int
		want       string
		wantStdout string
	}{
		"nothing visible":     {[]string{"filter", "--preview", "--only", "CARD", "--show-card-brands", "SODEXO"}, 1, "the filter leaves nothing to pay with", "Cards: 0 shown, 10 hidden"},
		"a refused filter":    {[]string{"filter", "--preview", "--hide-card-types", "credit"}, 1, `payment_filter.options[0].cardFilters[0].cardTypes[0]`, ""},
		"a mis-cased sdk_udf": {[]string{"filter", "--preview", "--sdk-udf", "hideemi"}, 1, "sdk_udf", ""},
		"a missing file":      {[]string{"filter", "--file", filepath.Join(dir, "none.json")}, 1, "checkout filter: --file: open ", ""},
		"a file not JSON":     {[]string{"filter", "--file", notJSON}, 1, "is not a JSON object", ""},
		"--only and --file":   {[]string{"filter", "--only", "UPI", "--file", notJSON}, 2, "give --only or --file, not both", ""},
		"--sdk-udf alone":     {[]string{"filter", "--sdk-udf", "hideEMI"}, 2, "--sdk-udf is for --preview", ""},
	} {
		t.Run(name, func(t *testing.T) {
			r := cli(t, nil, tc.args...)
			require.Equal(t, tc.code, r.code, r.stderr)
			require.Contains(t, r.stderr, tc.want)
			if tc.wantStdout == "" {
				require.Empty(t, r.stdout)
			} else {
				require.Contains(t, r.stdout, tc.wantStdout)
			}
		})
	}
	r := cli(t, nil, "filter", "--help")
	for _, flag := range []string{"-preview", "-file", "-sdk-udf", "checkout filter --preview --file session.json --sdk-udf hideEMI"} {
		require.Contains(t, r.stdout, flag)
	}
}

// The standalone fake serves the payment page of an order made over HTTP,
// and paying on it redirects to the order's return_url, signed.
func TestFakeServesThePaymentPage(t *testing.T) {
	const responseKey = "resp_key_page"
	base, _, out, _ := startFake(t, nil, "--merchant-id", "cli_shop", "--api-key", "cli_key", "--response-key", responseKey)
	require.Contains(t, out.String(), "  pay page:  payment_links.web of each session and order ("+base+"/orders/{id}/payment-page)\n")
	order := call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"cli/page"}, "amount": {"1499.00"}, "return_url": {"https://shop.example/back"}})
	page := order["payment_links"].(map[string]any)["web"].(string)

	resp, err := http.Get(page)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, string(body), `<span id="amount">₹1,499.00</span>`)
	require.Contains(t, string(body), `value="UPI:GPAY"`)

	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = hc.PostForm(page, url.Values{"option": {"NB:NB_HDFC"}, "outcome": {"success"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	to, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	ret, err := checkout.VerifyReturn(to.Query(), responseKey)
	require.NoError(t, err)
	require.Equal(t, "cli/page", ret.OrderID)
	require.Equal(t, "CHARGED", ret.Status)
}
