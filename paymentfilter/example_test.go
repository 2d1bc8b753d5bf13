package paymentfilter_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// show prints the JSON the filter sends, or why it cannot be sent.
func show(f *paymentfilter.Filter) {
	if err := f.Validate(); err != nil {
		fmt.Println("error:", err)
		return
	}
	out, err := json.Marshal(f)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(out))
}

// Hide a whole method type: works for CARD, WALLET, NB, CASH and
// the other types.
func ExampleFilter_Hide() {
	show(paymentfilter.New().Hide(paymentfilter.Wallet))
	show(paymentfilter.New().Hide(paymentfilter.NB))
	show(paymentfilter.New().Hide(paymentfilter.Card, paymentfilter.Cash))
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false}]}
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"NB","enable":false}]}
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":false},{"paymentMethodType":"CASH","enable":false}]}
}

// Show only UPI.
func ExampleOnly() {
	show(paymentfilter.Only(paymentfilter.UPI))
	// Output:
	// {"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true}]}
}

// Hide specific UPI collect handles and intent apps.
func ExampleFilter_HideUPIHandles() {
	show(paymentfilter.New().
		HideUPIHandles("@ybl", "@okhdfcbank").
		HideUPIApps("PHONEPE", "GPAY", "PAYTM"))
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"COLLECT","enable":false,"upiMethods":["@ybl","@okhdfcbank"]},{"upiType":"INTENT","enable":false,"upiMethods":["PHONEPE","GPAY","PAYTM"]}]}]}
}

// Hide credit cards.
func ExampleFilter_HideCardTypes() {
	show(paymentfilter.New().HideCardTypes(paymentfilter.Credit))
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}
}

// Hide BIN ranges.
func ExampleFilter_HideBINRanges() {
	show(paymentfilter.New().HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"}))
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000::460000"]}]}]}
}

// Hide specific wallets. The service's own sample sends the codes as one
// string with a comma, which passes too.
func ExampleFilter_HideMethods() {
	show(paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY", "SIMPL"))
	show(paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY,SIMPL"))
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["LAZYPAY","SIMPL"]}]}
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["LAZYPAY,SIMPL"]}]}
}

// Show only some cards: a card filter that combines criteria.
func ExampleFilter_AddCardFilter() {
	show(paymentfilter.Only(paymentfilter.Card).AddCardFilter(paymentfilter.CardFilter{
		Enable:     true,
		CardBrands: []string{"VISA"},
		CardTypes:  []paymentfilter.CardType{paymentfilter.Credit},
	}))
	// Output:
	// {"allowDefaultOptions":false,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":true,"cardBrands":["VISA"],"cardTypes":["CREDIT"]}]}]}
}

// Mandate flows pass each NB, WALLET or CONSUMER_FINANCE method twice: the
// plain code and the code with the deployment's prefix (SVC_ by default).
func ExampleFilter_ShowMandateMethods() {
	show(paymentfilter.Only().ShowMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.NB, "NB_HDFC"))
	show(paymentfilter.New().HideMandateMethods("JP_", paymentfilter.Wallet, "PAYTM"))
	// Output:
	// {"allowDefaultOptions":false,"options":[{"paymentMethodType":"NB","enable":true,"paymentMethods":["NB_HDFC","SVC_HDFC"]}]}
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["PAYTM","JP_PAYTM"]}]}
}

// The doubled codes on their own.
func ExampleMandateCodes() {
	fmt.Println(paymentfilter.MandateCodes(paymentfilter.DefaultMandatePrefix, paymentfilter.NB, "NB_HDFC"))
	fmt.Println(paymentfilter.MandateCodes("JP_", paymentfilter.ConsumerFinance, "LAZYPAY"))
	// Output:
	// [NB_HDFC SVC_HDFC]
	// [LAZYPAY JP_LAZYPAY]
}

// EMI filters ride in the payment filter: show only EMI, only no-cost EMI,
// or hide credit-card EMI inside no-cost EMI.
func ExampleFilter_EMI() {
	show(paymentfilter.New().EMI(emi.New().OnlyEMI()))
	show(paymentfilter.New().EMI(emi.New().OnlyNoCost()))
	show(paymentfilter.New().EMI(emi.New().Enable(emi.Standard, emi.LowCost).DisableGroup(emi.NoCost, emi.Credit)))
	// Output:
	// {"allowDefaultOptions":true,"options":[],"emiOptions":{"showOnlyEmi":true}}
	// {"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":true},"showOnlyEmi":true}}
	// {"allowDefaultOptions":true,"options":[],"emiOptions":{"standardEmi":{"enable":true},"lowCostEmi":{"enable":true},"noCostEmi":{"enable":true,"credit":{"enable":false}}}}
}

// The fluent methods change the filter in place, so a call on its own line
// counts; Clone gives a copy to extend another way.
func ExampleNew() {
	noCredit := paymentfilter.New()
	noCredit.HideCardTypes(paymentfilter.Credit)
	show(noCredit.Clone().Hide(paymentfilter.Wallet))
	show(noCredit)
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]},{"paymentMethodType":"WALLET","enable":false}]}
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}]}
}

// Validate names every problem by its JSON path.
func ExampleFilter_Validate() {
	f := &paymentfilter.Filter{
		AllowDefaultOptions: true,
		Options: []paymentfilter.Option{{
			PaymentMethodType: paymentfilter.Card,
			Enable:            true,
			CardFilters: []paymentfilter.CardFilter{{
				CardBins:  []paymentfilter.BINRange{{From: "460000", To: "459000"}},
				CardTypes: []paymentfilter.CardType{"credit"},
			}},
		}},
	}
	var ve *validation.Error
	if errors.As(f.Validate(), &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p.Path)
			fmt.Println("  ", p.Message)
		}
	}
	// Output:
	// payment_filter.options[0].cardFilters[0].cardBins[0]
	//    BIN range "460000::459000": from is greater than to
	// payment_filter.options[0].cardFilters[0].cardTypes[0]
	//    unknown card type "credit": values are case sensitive, did you mean "CREDIT"?
}

// A call that the block of its type cannot express as well adds a second
// block of the type, which Validate reports, saying what both blocks do
// and how to say it in one.
func ExampleFilter_Validate_conflict() {
	b := paymentfilter.Only(paymentfilter.Wallet).HideMethods(paymentfilter.Wallet, "PAYTM")
	var ve *validation.Error
	if errors.As(b.Validate(), &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// payment_filter.options[1]: duplicate WALLET block (the first is options[0]): this one hides the listed WALLET methods (enable: false, paymentMethods "PAYTM"), the first shows WALLET as a whole (enable: true, no paymentMethods); the service honours only the first block of a type, and one block cannot do both; to show WALLET but these methods, write New().Hide(CARD, UPI, NB, CONSUMER_FINANCE, REWARD, CASH).HideMethods(WALLET, "PAYTM") instead, or list the WALLET methods to show with ShowMethods(WALLET, …)
}

// ShowUPIApps shows only the listed apps in a filter begun with Only
// (allowDefaultOptions false: only what enable: true entries select is
// displayed). In a filter begun with New every default option stays
// visible, so the same call hides nothing: use HideUPIApps there.
func ExampleFilter_ShowUPIApps() {
	show(paymentfilter.Only(paymentfilter.UPI).ShowUPIApps("GPAY", "PHONEPE"))
	show(paymentfilter.New().HideUPIApps("PAYTM"))
	// Output:
	// {"allowDefaultOptions":false,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":true,"upiMethods":["GPAY","PHONEPE"]}]}]}
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":true,"upiFilters":[{"upiType":"INTENT","enable":false,"upiMethods":["PAYTM"]}]}]}
}

// Showing a value that an earlier call hid is a conflict, reported at the
// later filter.
func ExampleFilter_Validate_shownAndHidden() {
	f := paymentfilter.New().HideCardTypes(paymentfilter.Credit).ShowCardTypes(paymentfilter.Credit)
	var ve *validation.Error
	if errors.As(f.Validate(), &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// payment_filter.options[0].cardFilters[1]: shows cardTypes "CREDIT" (enable: true), which the card filter at cardFilters[0] hides: the same card type cannot be both shown and hidden
}

// Grey out two wallets with a message instead of hiding them (display and
// displayMessage of the service's schema).
func ExampleFilter_AddOption() {
	show(paymentfilter.New().AddOption(paymentfilter.Option{PaymentMethodType: paymentfilter.Wallet,
		PaymentMethods: []string{"LAZYPAY", "SIMPL"}, Display: true, DisplayMessage: "Back tomorrow"}))
	// Output:
	// {"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":false,"paymentMethods":["LAZYPAY","SIMPL"],"display":true,"displayMessage":"Back tomorrow"}]}
}
