package checkouttest

import (
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// The payment_filter of a session as the fake reads it (spec §2.2–2.5):
// every key and value case sensitive, the required keys required.

// methodTypes are the paymentMethodType values of spec §2.3. The set is
// open: the service's own published body sends WALLETS, so other values
// pass, but a known value in another case ("card") is refused.
var methodTypes = []string{"CARD", "UPI", "WALLET", "NB", "CONSUMER_FINANCE", "REWARD", "CASH"}

// cardTypeValues and upiTypeValues are the closed sets of cardTypes and
// upiType (spec §2.3).
var (
	cardTypeValues = []string{"DEBIT", "CREDIT"}
	upiTypeValues  = []string{"COLLECT", "INTENT"}
)

// cardListKeys are the lists of a cardFilter: the plural keys the samples
// send, with the singular spelling of the spec's field table (cardBanks is
// plural in both).
var cardListKeys = [][2]string{
	{"cardBrands", "cardBrand"}, {"cardBins", "cardBin"}, {"cardTypes", "cardType"},
	{"cardSubTypes", "cardSubType"}, {"cardBanks", "cardBank"},
}

// readFilter reads payment_filter: allowDefaultOptions and options are
// required (options may be empty when emiOptions is used), emiOptions is
// optional.
func readFilter(f *jsonObject) {
	f.flag("allowDefaultOptions", true)
	for _, o := range f.objects("options", true) {
		readOption(o)
	}
	if e, ok := f.object("emiOptions", false); ok {
		readEMIOptions(e)
	}
	f.done()
}

// readOption reads an element of options. enable must be true on CARD and
// UPI when they carry their filters; the lists of other types, which the
// service ignores, pass.
func readOption(o *jsonObject) {
	t, _ := o.enum("paymentMethodType", true, methodTypes, false)
	enable, hasEnable := o.flag("enable", true)
	o.texts("paymentMethods")
	cards := o.objects("cardFilters", false)
	for _, c := range cards {
		readCardFilter(c)
	}
	upis := o.objects("upiFilters", false)
	for _, u := range upis {
		readUPIFilter(u)
	}
	o.flag("display", false)
	o.text("displayMessage", false)
	switch {
	case !hasEnable || enable:
	case t == "CARD" && len(cards) > 0:
		o.p.bad(o.at("enable"), "must be true when cardFilters are given: the service requires it")
	case t == "UPI" && len(upis) > 0:
		o.p.bad(o.at("enable"), "must be true when upiFilters are given: the service requires it")
	}
	o.done()
}

// readCardFilter reads a cardFilter: enable, and lists under the plural or
// the singular key (not both); card types DEBIT or CREDIT, BIN ranges
// "<from_bin>::<to_bin>".
func readCardFilter(c *jsonObject) {
	c.flag("enable", true)
	for _, k := range cardListKeys {
		plural, hasPlural := c.texts(k[0])
		single, hasSingle := c.texts(k[1])
		key, values := k[0], plural
		switch {
		case hasPlural && hasSingle:
			c.p.bad(c.at(k[1]), "is given beside "+k[0]+": send one of the two spellings")
			continue
		case hasSingle:
			key, values = k[1], single
		}
		for i, v := range values {
			var msg string
			switch k[0] {
			case "cardTypes":
				msg = enumProblem(v, cardTypeValues, true)
			case "cardBins":
				msg = rangeProblem(v, "BIN", false)
			}
			if msg != "" {
				c.p.bad(validation.Index(c.at(key), i), msg)
			}
		}
	}
	c.done()
}

// readUPIFilter reads a upiFilter: enable, upiType COLLECT or INTENT, and
// upiMethods: handles "@<handle>" for COLLECT, app ids for INTENT.
func readUPIFilter(u *jsonObject) {
	u.flag("enable", true)
	typ, _ := u.enum("upiType", false, upiTypeValues, true)
	methods, _ := u.texts("upiMethods")
	for i, m := range methods {
		at := validation.Index(u.at("upiMethods"), i)
		switch {
		case typ == "COLLECT" && (!strings.HasPrefix(m, "@") || m == "@"):
			u.p.bad(at, strconv.Quote(m)+" is not a collect handle of the form @<handle>")
		case typ == "INTENT" && strings.HasPrefix(m, "@"):
			u.p.bad(at, strconv.Quote(m)+" is a collect handle: INTENT filters name UPI apps")
		}
	}
	u.done()
}

// The keys of emiOptions, its plan groups, and their refinements (§2.5).
var (
	emiPlanKeys  = []string{"standardEmi", "lowCostEmi", "noCostEmi"}
	emiGroupKeys = []string{"credit", "debit", "cardless"}
)

// readEMIOptions reads emiOptions: the three plan types and showOnlyEmi.
func readEMIOptions(e *jsonObject) {
	for _, k := range emiPlanKeys {
		if s, ok := e.object(k, false); ok {
			s.flag("enable", true)
			for _, g := range emiGroupKeys {
				if grp, ok := s.object(g, false); ok {
					readEMIGroup(grp)
				}
			}
			s.done()
		}
	}
	e.flag("showOnlyEmi", false)
	e.done()
}

// readEMIGroup reads a credit, debit or cardless group and its filters.
func readEMIGroup(g *jsonObject) {
	g.flag("enable", true)
	for _, f := range g.objects("filters", false) {
		f.flag("enable", true)
		f.enum("paymentMethodType", false, methodTypes, false)
		f.text("paymentMethod", false)
		key := "issuerFilter" // the samples' spelling; the field table writes issuerFilters
		if !f.has(key) && f.has("issuerFilters") {
			key = "issuerFilters"
		} else if f.has(key) && f.has("issuerFilters") {
			f.p.bad(f.at("issuerFilters"), "is given beside issuerFilter: send one of the two spellings")
		}
		f.read = append(f.read, "issuerFilter", "issuerFilters")
		if i, ok := f.object(key, false); ok {
			i.texts("issuers")
			tenures, _ := i.texts("tenures")
			for n, t := range tenures {
				if msg := rangeProblem(t, "tenure", true); msg != "" {
					i.p.bad(validation.Index(i.at("tenures"), n), msg)
				}
			}
			i.flag("enable", true)
			i.done()
		}
		f.done()
	}
	g.done()
}

// rangeProblem checks a range "<from>::<to>" of what (BIN digits, tenure
// months): decimal digits on both sides, from not above to, and with
// fromOne from at least 1; "" when it is one.
func rangeProblem(s, what string, fromOne bool) string {
	from, to, ok := strings.Cut(s, "::")
	if !ok || !isDigits(from) || !isDigits(to) {
		return strconv.Quote(s) + " is not a " + what + " range <from>::<to> of digits"
	}
	a, b := strings.TrimLeft(from, "0"), strings.TrimLeft(to, "0") // compared as numbers
	switch {
	case fromOne && a == "":
		return strconv.Quote(s) + " starts below 1"
	case len(b) < len(a) || len(b) == len(a) && b < a:
		return strconv.Quote(s) + ": from is greater than to"
	}
	return ""
}
