package checkouttest

import (
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/paymentfilter"
)

// The fake's catalogue: every payment option its payment page can show
// before a filter hides some. The spec does not publish the service's
// lists of cards, apps, handles, wallets, banks or EMI plans, so these are
// the fake's own, chosen to cover every kind of rule: card filters by
// brand, type, sub type, bank and BIN; UPI apps and collect handles;
// wallets (LAZYPAY and SIMPL among them, as the service's own sample hides
// them as wallets); banks written NB_<BANK>; and EMI plans of the three
// kinds, in the credit, debit and cardless groups, by issuer and tenure.
//
// The functions return new slices on each call: the package holds no
// mutable state.

// Section headings of the page, in page order.
const (
	sectionCards     = "Cards"
	sectionUPIApps   = "UPI apps"
	sectionUPIIDs    = "UPI IDs"
	sectionWallets   = "Wallets"
	sectionNB        = "Net banking"
	sectionFinance   = "Pay later"
	sectionRewards   = "Reward points"
	sectionCash      = "Cash"
	sectionEMI       = "EMI"
	typeEMI          = "EMI" // the value prefix of EMI options: no paymentMethodType
	emiGroupCredit   = "credit"
	emiGroupDebit    = "debit"
	emiGroupCardless = "cardless"
)

// PageCard is the test card behind a CARD option of the payment page
// ([PageOption].Card): what a [paymentfilter.CardFilter] matches it by.
type PageCard struct {
	// BIN is the card's first six digits, which cardBins ranges match.
	BIN string
	// Brand is the card network, such as "VISA", which cardBrands match.
	Brand string
	// Type is CREDIT or DEBIT, which cardTypes match.
	Type paymentfilter.CardType
	// SubType is the card's sub type, such as "PLATINUM" or "BUSINESS",
	// which cardSubTypes match.
	SubType string
	// Bank is the issuing bank, such as "ICICI", which cardBanks match.
	Bank string
}

// PagePlan is the EMI plan behind an EMI option of the payment page
// ([PageOption].Plan): what a session's emiOptions match it by.
type PagePlan struct {
	// Kind is the plan's emiOptions key: "standardEmi", "lowCostEmi" or
	// "noCostEmi".
	Kind string
	// Group is the key of its group inside the kind: "credit", "debit" or
	// "cardless".
	Group string
	// Issuer is the issuer code an issuerFilter names, such as
	// "SVC_ICICI".
	Issuer string
	// Months is the tenure, which issuerFilter tenures ranges match.
	Months int
	// MethodType and Method are what an emiFilter's paymentMethodType and
	// paymentMethod match: CARD and CARD for the credit and debit groups,
	// as the service's samples write them; CONSUMER_FINANCE and CARDLESS
	// for the cardless group (the spec does not say).
	MethodType paymentfilter.MethodType
	// Method: see MethodType.
	Method string
}

func catalogCards() []PageCard {
	return []PageCard{
		{BIN: "459150", Brand: "VISA", Type: paymentfilter.Credit, SubType: "PLATINUM", Bank: "ICICI"},
		{BIN: "438628", Brand: "VISA", Type: paymentfilter.Credit, SubType: "BUSINESS", Bank: "HDFC"},
		{BIN: "414720", Brand: "VISA", Type: paymentfilter.Credit, SubType: "EMPLOYEE_CARD", Bank: "AXIS"},
		{BIN: "421323", Brand: "VISA", Type: paymentfilter.Debit, SubType: "CLASSIC", Bank: "SBI"},
		{BIN: "524193", Brand: "MASTERCARD", Type: paymentfilter.Credit, SubType: "WORLD", Bank: "HDFC"},
		{BIN: "510497", Brand: "MASTERCARD", Type: paymentfilter.Debit, SubType: "STANDARD", Bank: "AXIS"},
		{BIN: "508227", Brand: "RUPAY", Type: paymentfilter.Credit, SubType: "PLATINUM", Bank: "KOTAK"},
		{BIN: "652150", Brand: "RUPAY", Type: paymentfilter.Debit, SubType: "CLASSIC", Bank: "SBI"},
		{BIN: "371449", Brand: "AMEX", Type: paymentfilter.Credit, SubType: "GOLD", Bank: "AMEX"},
		{BIN: "361234", Brand: "DINERS", Type: paymentfilter.Credit, SubType: "PREMIUM", Bank: "HDFC"},
	}
}

// catalogMethod is one option of a type that filters name by code.
type catalogMethod struct{ code, name string }

func catalogUPIApps() []catalogMethod {
	return []catalogMethod{{"GPAY", "Google Pay"}, {"PHONEPE", "PhonePe"}, {"PAYTM", "Paytm"}, {"BHIM", "BHIM"}, {"CRED", "CRED"}}
}

func catalogUPIHandles() []string {
	return []string{"@ybl", "@okhdfcbank", "@okicici", "@oksbi", "@paytm", "@axl", "@upi"}
}

// catalogMethods are the options of the types filtered by paymentMethods,
// in page order.
func catalogMethods() []struct {
	t       paymentfilter.MethodType
	section string
	methods []catalogMethod
} {
	return []struct {
		t       paymentfilter.MethodType
		section string
		methods []catalogMethod
	}{
		{paymentfilter.Wallet, sectionWallets, []catalogMethod{
			{"PAYTM", "Paytm wallet"}, {"PHONEPE", "PhonePe wallet"}, {"AMAZONPAY", "Amazon Pay"}, {"GOOGLEPAY", "Google Pay wallet"},
			{"MOBIKWIK", "MobiKwik"}, {"FREECHARGE", "Freecharge"}, {"AIRTEL", "Airtel Payments Bank"}, {"LAZYPAY", "LazyPay"}, {"SIMPL", "Simpl"},
		}},
		{paymentfilter.NB, sectionNB, []catalogMethod{
			{"NB_HDFC", "HDFC Bank"}, {"NB_ICICI", "ICICI Bank"}, {"NB_SBI", "State Bank of India"}, {"NB_AXIS", "Axis Bank"}, {"NB_KOTAK", "Kotak Mahindra Bank"},
		}},
		{paymentfilter.ConsumerFinance, sectionFinance, []catalogMethod{
			{"ZESTMONEY", "ZestMoney"}, {"HDFC_FLEXIPAY", "HDFC FlexiPay"}, {"ICICI_PAYLATER", "ICICI PayLater"},
		}},
		{paymentfilter.Reward, sectionRewards, []catalogMethod{{"TWID", "Twid reward points"}, {"PAYBACK", "PAYBACK points"}}},
		{paymentfilter.Cash, sectionCash, []catalogMethod{{"CASH", "Cash on delivery"}}},
	}
}

// EMI plan kinds, groups, issuers and tenures of the catalogue.
const (
	emiStandard = "standardEmi"
	emiLowCost  = "lowCostEmi"
	emiNoCost   = "noCostEmi"
)

func catalogPlans() []PagePlan {
	kinds := []struct {
		key    string
		months []int
	}{
		{emiStandard, []int{3, 6, 9, 12, 18, 24}},
		{emiLowCost, []int{3, 6}},
		{emiNoCost, []int{3, 6, 9, 12}},
	}
	groups := []struct {
		key     string
		issuers []string
	}{
		{emiGroupCredit, []string{"SVC_HDFC", "SVC_ICICI", "SVC_AXIS"}},
		{emiGroupDebit, []string{"SVC_HDFC", "SVC_ICICI"}},
		{emiGroupCardless, []string{"SVC_KOTAK"}},
	}
	var out []PagePlan
	for _, k := range kinds {
		for _, g := range groups {
			t, m := paymentfilter.Card, "CARD"
			if g.key == emiGroupCardless {
				t, m = paymentfilter.ConsumerFinance, "CARDLESS"
			}
			for _, iss := range g.issuers {
				for _, n := range k.months {
					out = append(out, PagePlan{Kind: k.key, Group: g.key, Issuer: iss, Months: n, MethodType: t, Method: m})
				}
			}
		}
	}
	return out
}

// kindName is how the page names an EMI kind.
func kindName(key string) string {
	switch key {
	case emiStandard:
		return "Standard EMI"
	case emiLowCost:
		return "Low cost EMI"
	default:
		return "No cost EMI"
	}
}

// The form values of the options: each starts with its payment method
// type ("EMI" for EMI plans), then what tells it apart.

func cardValue(c PageCard) string {
	return "CARD:" + string(c.Type) + ":" + c.Brand + ":" + c.Bank + ":" + c.SubType
}

func cardLabel(c PageCard) string {
	return c.Brand + " " + strings.ToLower(string(c.Type)) + " card, " + c.Bank + ", " + c.SubType + ", BIN " + c.BIN
}

func planValue(p PagePlan) string {
	return typeEMI + ":" + p.Kind + ":" + p.Group + ":" + p.Issuer + ":" + strconv.Itoa(p.Months)
}

func planLabel(p PagePlan) string {
	group := p.Group + " card"
	if p.Group == emiGroupCardless {
		group = "cardless"
	}
	return kindName(p.Kind) + ", " + group + ", " + p.Issuer + ", " + strconv.Itoa(p.Months) + " months"
}
