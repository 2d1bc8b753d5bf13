// Command filters prints the payment_filter JSON of every payment locking
// behaviour and every EMI behaviour the service documents, each under a
// one-line caption, as the fluent methods of packages paymentfilter and emi
// make it. It is documentation you can run:
//
//	go run ./examples/filters
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "filters:", err)
		os.Exit(1)
	}
}

// behaviour is one row of the service's behaviour tables.
type behaviour struct {
	caption string
	filter  *paymentfilter.Filter
}

func behaviours() []behaviour {
	bins := paymentfilter.BINRange{From: "459000", To: "460000"}
	return []behaviour{
		// Payment locking.
		{"Hide a whole method type: cards", paymentfilter.New().Hide(paymentfilter.Card)},
		{"Hide a whole method type: wallets", paymentfilter.New().Hide(paymentfilter.Wallet)},
		{"Hide a whole method type: net banking", paymentfilter.New().Hide(paymentfilter.NB)},
		{"Hide a whole method type: cash", paymentfilter.New().Hide(paymentfilter.Cash)},
		{"Show only UPI", paymentfilter.Only(paymentfilter.UPI)},
		{"Hide specific UPI collect handles and intent apps",
			paymentfilter.New().HideUPIHandles("@ybl", "@okhdfcbank").HideUPIApps("PHONEPE", "GPAY", "PAYTM")},
		{"Hide credit cards", paymentfilter.New().HideCardTypes(paymentfilter.Credit)},
		{"Hide BIN ranges", paymentfilter.New().HideBINRanges(bins)},
		{"Hide specific wallets", paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY", "SIMPL")},
		// Mandate flows pass each method twice: the plain code and the
		// code with the deployment's prefix (SVC_ in the service's
		// interface document).
		{"Mandate: show only HDFC net banking",
			paymentfilter.Only().ShowMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.NB, "NB_HDFC")},
		{"Mandate: hide the PAYTM wallet",
			paymentfilter.New().HideMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.Wallet, "PAYTM")},
		{"Mandate: show only one consumer finance provider",
			paymentfilter.Only().ShowMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.ConsumerFinance, "LAZYPAY")},
		// EMI plans.
		{"Show only EMI", paymentfilter.New().EMI(emi.New().OnlyEMI())},
		{"Show only no-cost EMI", paymentfilter.New().EMI(emi.New().OnlyNoCost())},
		{"EMI types by enable flags: standard and no-cost, not low-cost",
			paymentfilter.New().EMI(emi.New().Enable(emi.Standard, emi.NoCost).Disable(emi.LowCost))},
		{"EMI types by enable flags: all three, and nothing else",
			paymentfilter.Only().EMI(emi.New().Enable(emi.Standard, emi.LowCost, emi.NoCost))},
		{"Hide credit-card EMI inside no-cost EMI", paymentfilter.New().EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit))},
		{"Remove an issuer's no-cost credit EMI plans",
			paymentfilter.New().EMI(emi.New().RemoveIssuers(emi.NoCost, emi.Credit, "SVC_ICICI"))},
		{"Remove an issuer's 9 to 12 month no-cost credit EMI plans",
			paymentfilter.New().EMI(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12)))},
	}
}

// run prints every behaviour: a "# caption" line, then the payment_filter
// JSON. It stops at the first filter that does not validate.
func run(w io.Writer) error {
	for _, b := range behaviours() {
		if err := b.filter.Validate(); err != nil {
			return fmt.Errorf("%s: %w", b.caption, err)
		}
		out, err := json.Marshal(b.filter)
		if err != nil {
			return fmt.Errorf("%s: %w", b.caption, err)
		}
		if _, err := fmt.Fprintf(w, "# %s\n%s\n\n", b.caption, out); err != nil {
			return err
		}
	}
	// The coarse EMI switch is the session request's sdk_udf.
	for _, v := range []struct {
		caption string
		value   emi.Visibility
	}{
		{"EMI shown (sdk_udf of the session request)", emi.Show},
		{"EMI hidden (sdk_udf of the session request)", emi.Hide},
		{"EMI shown without the CARD method (sdk_udf of the session request)", emi.ShowWithoutCards},
	} {
		out, err := json.Marshal(map[string]emi.Visibility{"sdk_udf": v.value})
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "# %s\n%s\n\n", v.caption, out); err != nil {
			return err
		}
	}
	return nil
}
