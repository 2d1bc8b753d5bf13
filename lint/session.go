package lint

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/spelling"
)

// session advises on a session request: the action and what it takes,
// customer_email, the shape of amounts, order_id, phone, email and
// return_url, the mandate, the payment filter and EMI switch, Extra keys.
func (a *advice) session(r *checkout.SessionRequest) {
	if r == nil {
		return
	}
	switch {
	case r.Action == checkout.PaymentManagement:
		if r.OrderID != "" {
			a.Add("order_id", "is set, but "+string(checkout.PaymentManagement)+" takes no order")
		}
		if r.Amount != "" {
			a.Add("amount", "is set, but "+string(checkout.PaymentManagement)+" takes no amount")
		}
	case (r.Action == checkout.PaymentPage || r.Action == checkout.QuickPay) && strings.TrimSpace(r.CustomerEmail) == "":
		a.Add("customer_email", "is not set: the service's field table lists it as required, though some of its own published bodies leave it out")
	case r.Action != "" && !r.Action.Valid():
		a.Add("action", fmt.Sprintf("%q is not an action this SDK knows (%s, %s, %s): only what every action needs was checked",
			string(r.Action), checkout.PaymentPage, checkout.QuickPay, checkout.PaymentManagement))
	}
	a.orderID("order_id", r.OrderID)
	a.amount("amount", r.Amount)
	a.phone("customer_phone", r.CustomerPhone)
	a.email("customer_email", r.CustomerEmail)
	a.url("return_url", r.ReturnURL)
	if r.Mandate != nil {
		a.mandate(r.Mandate)
	}
	a.filter(r.PaymentFilter)
	if msg := spelling.Unknown("EMI visibility", r.EMI, emi.Visibilities(), true); msg != "" {
		a.Add("sdk_udf", msg)
	}
	extraKeys(a, r.Extra)
	a.typedExtra(r.Extra)
}

// typedExtra advises against an Extra key that a typed field of the
// session request reads: Validate lets it through while the field is
// empty, and sends it as given, unchecked. Decoding the key alone tells:
// the decoder keeps in Extra only keys no typed field takes.
func (a *advice) typedExtra(extra map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		key, err := json.Marshal(k)
		if err != nil || k == "" {
			continue
		}
		var probe checkout.SessionRequest
		if json.Unmarshal([]byte("{"+string(key)+":null}"), &probe) == nil && len(probe.Extra) == 0 {
			a.Add(k, "is the key of a typed field of SessionRequest: set the field, which Validate checks, rather than Extra")
		}
	}
}

// mandate advises on a session's mandate: its option, the amount's shape
// and size, dates in order and after 1970.
func (a *advice) mandate(m *checkout.Mandate) {
	a.amount("mandate.max_amount", m.MaxAmount)
	switch {
	case m.Option.Valid():
	case m.Option == "":
		a.Add("options.create_mandate", "is not set: without it the service sets up no mandate and the other mandate keys have no effect")
	default:
		a.Add("options.create_mandate", fmt.Sprintf("%q is neither %s nor %s", string(m.Option), checkout.MandateRequired, checkout.MandateOptional))
	}
	if minor, err := m.MaxAmount.Minor(); err == nil && minor < 100 {
		a.Add("mandate.max_amount", "is below 1.00, which the service refuses for a mandate")
	}
	if !m.StartDate.IsZero() && m.StartDate.Unix() <= 0 {
		a.Add("mandate.start_date", "is not after 1970-01-01")
	}
	if !m.EndDate.IsZero() && m.EndDate.Unix() <= 0 {
		a.Add("mandate.end_date", "is not after 1970-01-01")
	}
	if !m.StartDate.IsZero() && !m.EndDate.IsZero() && !m.EndDate.After(m.StartDate) {
		a.Add("mandate.end_date", "is not after mandate.start_date")
	}
}
