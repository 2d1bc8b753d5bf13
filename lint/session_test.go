package lint_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// baseSession is a valid paymentPage request with no advice.
func baseSession() *checkout.SessionRequest {
	return &checkout.SessionRequest{
		OrderID: "order_dummy_1", Amount: "100.00", CustomerID: "customer_id", CustomerPhone: "8888899999",
		CustomerEmail: "asdf@gmail.com", PaymentPageClientID: "picasso", Action: checkout.PaymentPage,
	}
}

// paths returns the paths of ps, in order.
func paths(ps []validation.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return out
}

// requireAdvice checks that r passes Validate (advice is never a refusal)
// and that its advice has exactly the paths want, in order, each with a
// message.
func requireAdvice[R interface {
	lint.Request
	Validate() error
}](t *testing.T, r R, want []string) {
	t.Helper()
	require.NoError(t, r.Validate(), "advice only")
	advice := lint.Check(r)
	for _, p := range advice {
		require.NotEmpty(t, p.Message, "advice at %q", p.Path)
	}
	require.Equal(t, want, paths(advice), "%v", advice)
}

// The advice on session requests Validate lets through, moved here from
// SessionRequest.Lint with the same paths.
func TestSession(t *testing.T) {
	require.Nil(t, lint.Check(baseSession()))
	require.Nil(t, lint.Check((*checkout.SessionRequest)(nil)))
	for _, tc := range []struct {
		name   string
		mutate func(r *checkout.SessionRequest)
		want   []string
	}{
		{"unknown action", func(r *checkout.SessionRequest) { r.Action = "enach" }, []string{"action"}},
		{"paymentManagement with order and amount", func(r *checkout.SessionRequest) { r.Action = checkout.PaymentManagement },
			[]string{"order_id", "amount"}},
		{"amount one place", func(r *checkout.SessionRequest) { r.Amount = "1.0" }, []string{"amount"}},
		{"amount with leading zeros", func(r *checkout.SessionRequest) { r.Amount = "0100.00" }, []string{"amount"}},
		{"order id", func(r *checkout.SessionRequest) { r.OrderID = " testing-order-one" }, []string{"order_id"}},
		{"customer", func(r *checkout.SessionRequest) { r.CustomerEmail, r.CustomerPhone = "a@b", "98-76" },
			[]string{"customer_phone", "customer_email"}},
		{"no customer_email for paymentPage", func(r *checkout.SessionRequest) { r.CustomerEmail = "" }, []string{"customer_email"}},
		{"return url", func(r *checkout.SessionRequest) { r.ReturnURL = "shop.example.com" }, []string{"return_url"}},
		{"mandate", func(r *checkout.SessionRequest) {
			r.Mandate = &checkout.Mandate{MaxAmount: "0.5", StartDate: time.Unix(-5, 0), EndDate: time.Unix(-10, 0)}
		}, []string{"mandate.max_amount", "options.create_mandate", "mandate.max_amount",
			"mandate.start_date", "mandate.end_date", "mandate.end_date"}},
		{"mandate option", func(r *checkout.SessionRequest) { r.Mandate = &checkout.Mandate{Option: "required", MaxAmount: "1.00"} },
			[]string{"options.create_mandate"}},
		{"extra keys", func(r *checkout.SessionRequest) { r.Extra = map[string]any{"": 1, "a\tb": 2} }, []string{"", `"a\tb"`}},
		{"extra keys of typed fields left empty", func(r *checkout.SessionRequest) {
			r.Extra = map[string]any{"udf1": "x", "metadata.webhook_url": "http://shop.example/hook", "mobile_country_code": "91"}
		}, []string{"metadata.webhook_url", "udf1"}},
		{"paymentManagement with an order in Extra", func(r *checkout.SessionRequest) {
			r.Action, r.OrderID, r.Amount = checkout.PaymentManagement, "", ""
			r.Extra = map[string]any{"order_id": "o"}
		}, []string{"order_id"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := baseSession()
			tc.mutate(r)
			requireAdvice(t, r, tc.want)
		})
	}
}

// The advice of the payment filter (its EMI options included) and of the
// EMI switch comes at their full paths, beside the session's own, and the
// filter's is what Check gives on the filter alone.
func TestSessionNested(t *testing.T) {
	r := baseSession()
	r.Amount = "100"
	r.PaymentFilter = &paymentfilter.Filter{AllowDefaultOptions: true, Options: []paymentfilter.Option{
		{PaymentMethodType: paymentfilter.Card, Enable: true,
			CardFilters: []paymentfilter.CardFilter{{CardTypes: []paymentfilter.CardType{"PREPAIDX"}}}},
	}}
	r.EMI = "showEMl"
	require.NoError(t, r.Validate(), "advice only")
	advice := lint.Check(r)
	byPath := map[string]string{}
	for _, p := range advice {
		byPath[p.Path] = p.Message
	}
	require.Len(t, byPath, 3, "%v", byPath)
	require.Contains(t, byPath, "amount")
	require.Contains(t, byPath["payment_filter.options[0].cardFilters[0].cardTypes[0]"], `"PREPAIDX"`)
	require.Equal(t, `unknown EMI visibility "showEMl": likely a typo, did you mean "showEMI"?`, byPath["sdk_udf"])
	require.Equal(t, lint.Check(r.PaymentFilter), advice[1:2], "the filter's own advice, unchanged")

	r.EMI = "show"
	require.Contains(t, lint.Check(r), validation.Problem{Path: "sdk_udf",
		Message: `unknown EMI visibility "show": the service documents showEMI, hideEMI, ShowEMIWithoutCards only`})
	r.EMI = "showemi"
	require.Error(t, r.Validate(), "a known value in another case is Validate's")
	require.NotContains(t, paths(lint.Check(r)), "sdk_udf")
}

// The service's own published session bodies get no advice beyond what
// they are known to do: an unknown action (enach), amounts written with one
// place ("1.0"), an order id with a trailing space. None of their keys is a
// typed field's left in Extra.
func TestSessionPublishedBodies(t *testing.T) {
	for _, s := range conformance.Files(t, "session", "session_request_*.json") {
		if !s.ValidJSON() {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			var r checkout.SessionRequest
			require.NoError(t, json.Unmarshal(s.Data, &r))
			for _, p := range lint.Check(&r) {
				require.Contains(t, []string{"action", "amount", "order_id"}, p.Path, "%s", p)
			}
		})
	}
}
