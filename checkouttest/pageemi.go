package checkouttest

import (
	"slices"
	"strconv"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// emiPath is the path of payment_filter.emiOptions.
const emiPath = filterPath + ".emiOptions"

// plan decides an EMI plan: sdk_udf and showOnlyEmi for EMI as a whole,
// then the plan kinds of emiOptions, the groups of its kind, and the
// filters of its group.
func (r *pageRules) plan(p PagePlan) decision {
	var d decision
	switch {
	case r.udf == emi.Hide:
		return hide("sdk_udf " + string(emi.Hide) + " hides EMI")
	case r.showOnly:
		d = show(validation.Join(emiPath, "showOnlyEmi") + " is true")
	case r.udf == emi.Show || r.udf == emi.ShowWithoutCards:
		d = show("sdk_udf " + string(r.udf) + " shows EMI")
	default:
		d = undecided("no sdk_udf, showOnlyEmi or emiOptions entry for EMI as a whole")
	}
	if r.f == nil || r.f.EMIOptions == nil {
		return d
	}
	es, sub := levelOf(kindsOf(r.f.EMIOptions), p.Kind, emiPath, func(s *emi.SubFilter) bool { return s.Enable })
	if d = r.level(d, emiPath, es); sub == nil || d.state == hidden {
		return d
	}
	kindPath := validation.Join(emiPath, p.Kind)
	es, group := levelOf(groupsOf(sub), p.Group, kindPath, func(g *emi.Group) bool { return g.Enable })
	if d = r.level(d, kindPath, es); group == nil || d.state == hidden {
		return d
	}
	scope := validation.Join(validation.Join(kindPath, p.Group), "filters")
	es = es[:0]
	for j, f := range group.Filters {
		enable := f.Enable && (f.IssuerFilter == nil || f.IssuerFilter.Enable)
		es = append(es, entry{enable: enable, matches: planMatches(f, p), path: validation.Index(scope, j)})
	}
	return r.level(d, scope, es)
}

// keyed is a part of emiOptions and its key: a plan kind or a group.
type keyed[T any] struct {
	key string
	v   *T
}

// kindsOf lists the plan kinds e sets.
func kindsOf(e *emi.Options) []keyed[emi.SubFilter] {
	return present([]keyed[emi.SubFilter]{{emiStandard, e.StandardEMI}, {emiLowCost, e.LowCostEMI}, {emiNoCost, e.NoCostEMI}})
}

// groupsOf lists the groups s sets.
func groupsOf(s *emi.SubFilter) []keyed[emi.Group] {
	return present([]keyed[emi.Group]{{emiGroupCredit, s.Credit}, {emiGroupDebit, s.Debit}, {emiGroupCardless, s.Cardless}})
}

func present[T any](list []keyed[T]) []keyed[T] {
	out := list[:0]
	for _, k := range list {
		if k.v != nil {
			out = append(out, k)
		}
	}
	return out
}

// levelOf makes the entries of one level of emiOptions (the kinds, or
// the groups of a kind) at path, matching the one named key, and returns
// that one (nil when it is not set).
func levelOf[T any](list []keyed[T], key, path string, enable func(*T) bool) ([]entry, *T) {
	var es []entry
	var named *T
	for _, k := range list {
		es = append(es, entry{enable: enable(k.v), matches: k.key == key, path: validation.Join(path, k.key)})
		if k.key == key {
			named = k.v
		}
	}
	return es, named
}

// planMatches reports whether an emiFilter matches the plan: its
// paymentMethodType, paymentMethod, issuers and tenure ranges, each when
// given.
func planMatches(f emi.Filter, p PagePlan) bool {
	if f.PaymentMethodType != "" && paymentfilter.MethodType(f.PaymentMethodType) != p.MethodType ||
		f.PaymentMethod != "" && f.PaymentMethod != p.Method {
		return false
	}
	i := f.IssuerFilter
	if i == nil {
		return true
	}
	return (len(i.Issuers) == 0 || slices.Contains(i.Issuers, p.Issuer)) &&
		(len(i.Tenures) == 0 || slices.ContainsFunc(i.Tenures, func(t emi.TenureRange) bool { return t.From <= p.Months && p.Months <= t.To }))
}

// Notes on what the spec leaves open, given when a filter meets it.
const (
	noteHideWins   = "A hiding entry (enable: false) and a showing one (enable: true) both match some option: the spec does not say which wins; the fake hides it."
	noteNarrowTrue = "enable: true entries inside a type or EMI kind show what they match; with allowDefaultOptions true the fake keeps the rest visible " +
		"(\"all other default options stay visible besides the filtered ones\"): the spec does not say whether a showing entry narrows its type."
	noteNarrowFalse = "With allowDefaultOptions false, where enable: true entries exist (card filters, UPI filters of one upiType, paymentMethods, " +
		"EMI kinds, groups and filters), the fake shows only what they select (\"only the options selected by enable=true entries are displayed\"), " +
		"applying the rule the spec gives for options at every level."
	noteUDFAndEMI = "sdk_udf and emiOptions are both set: the spec does not say how they combine. The fake applies sdk_udf first " +
		"(hideEMI hides every plan; showEMI and ShowEMIWithoutCards select EMI as an enable: true entry would), then emiOptions."
	noteCardEMI = "The CARD method is hidden while card EMI plans are shown: the spec does not tie the two (ShowEMIWithoutCards even asks for it)."
	noteNothing = "Nothing is visible: the filter leaves no option of the fake's catalogue, so the page offers nothing to pay with."
)

// readBlock records options[i]: the first block of each type, and notes
// on what the page ignores in it.
func (r *pageRules) readBlock(i int, o paymentfilter.Option) {
	p := blockPath(i)
	t := o.PaymentMethodType
	if t == "WALLETS" {
		r.note(p + ": WALLETS is read as WALLET, as the service's older documents spell it.")
		t = paymentfilter.Wallet
	}
	if !slices.Contains(paymentfilter.MethodTypes(), t) {
		r.note(p + ": paymentMethodType " + strconv.Quote(string(t)) + " is not a type the fake's catalogue has (values are case sensitive): it changes nothing on the page.")
		return
	}
	if _, dup := r.blocks[t]; dup {
		r.note(p + ": a second " + string(t) + " block; the service honours only the first block of a type, so the fake ignores it.")
		return
	}
	r.blocks[t] = i
	if o.Display || o.DisplayMessage != "" {
		r.note(p + " greys out with display and displayMessage (in the service's schema): the fake ignores them.")
	}
	if (t == paymentfilter.Card || t == paymentfilter.UPI) && len(o.PaymentMethods) > 0 {
		r.note(p + ".paymentMethods is ignored: the spec says so for CARD and UPI.")
	}
	if t != paymentfilter.Card && len(o.CardFilters) > 0 {
		r.note(p + ".cardFilters is ignored: card filters are considered only for CARD.")
	}
	if t != paymentfilter.UPI && len(o.UPIFilters) > 0 {
		r.note(p + ".upiFilters is ignored: UPI filters are considered only for UPI.")
	}
	r.readCodes(p, t, o)
}

// readCodes notes the codes of a block that match nothing in the
// catalogue, so a merchant sees a typo or a code the fake does not know.
func (r *pageRules) readCodes(p string, t paymentfilter.MethodType, o paymentfilter.Option) {
	known := map[string]bool{}
	switch t {
	case paymentfilter.Card:
		for _, c := range catalogCards() {
			known[c.Brand], known[string(c.Type)], known[c.SubType], known[c.Bank] = true, true, true, true
		}
		for j, cf := range o.CardFilters {
			r.binRanges = r.binRanges || len(cf.CardBins) > 0
			all := append(append(append(append([]string{}, cf.CardBrands...), cf.CardSubTypes...), cf.CardBanks...), typeNames(cf.CardTypes)...)
			r.unknown(validation.Index(p+".cardFilters", j), all, known, "card brand, type, sub type or bank")
		}
	case paymentfilter.UPI:
		for _, a := range catalogUPIApps() {
			known[a.code] = true
		}
		for _, h := range catalogUPIHandles() {
			known[h] = true
		}
		for j, u := range o.UPIFilters {
			if u.UPIType != "" && !u.UPIType.Valid() {
				r.note(validation.Index(p+".upiFilters", j) + ": upiType " + strconv.Quote(string(u.UPIType)) + " is neither COLLECT nor INTENT: it matches nothing.")
			}
			r.unknown(validation.Index(p+".upiFilters", j), u.UPIMethods, known, "UPI app or handle")
		}
	default:
		for _, g := range catalogMethods() {
			if g.t == t {
				for _, m := range g.methods {
					known[m.code] = true
				}
			}
		}
		if slices.ContainsFunc(o.PaymentMethods, func(m string) bool { return len(codes([]string{m})) > 1 }) {
			r.note(p + ".paymentMethods has an entry holding commas (as the service's own sample \"LAZYPAY,SIMPL\" does): the fake reads it as several codes.")
		}
		r.unknown(p+".paymentMethods", codes(o.PaymentMethods), known, string(t)+" method")
	}
}

func typeNames(ts []paymentfilter.CardType) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

// unknown notes the values at path that the catalogue does not hold.
func (r *pageRules) unknown(path string, values []string, known map[string]bool, what string) {
	for _, v := range values {
		switch {
		case known[v]:
		case len(v) > len(paymentfilter.DefaultMandatePrefix) && v[:len(paymentfilter.DefaultMandatePrefix)] == paymentfilter.DefaultMandatePrefix:
			r.note(path + ": " + strconv.Quote(v) + " is a mandate code; the page shows a one-time payment, where it matches nothing.")
		default:
			r.note(path + ": " + strconv.Quote(v) + " matches no " + what + " of the fake's catalogue (values are case sensitive).")
		}
	}
}

// readUDF notes an sdk_udf value the spec does not list.
func (r *pageRules) readUDF() {
	if r.udf != "" && !r.udf.Valid() {
		r.note("sdk_udf " + strconv.Quote(string(r.udf)) + " is not one of showEMI, hideEMI, ShowEMIWithoutCards (case sensitive): the fake ignores it.")
		r.udf = ""
	}
}

// readEMI notes the issuers emiOptions names that no plan has, and the
// meeting of sdk_udf and emiOptions.
func (r *pageRules) readEMI() {
	e := r.f.EMIOptions
	if e == nil {
		return
	}
	if r.udf != "" {
		r.note(noteUDFAndEMI)
	}
	known := map[string]bool{}
	for _, p := range catalogPlans() {
		known[p.Issuer] = true
	}
	for _, k := range kindsOf(e) {
		for _, g := range groupsOf(k.v) {
			for j, f := range g.v.Filters {
				if f.IssuerFilter != nil {
					p := validation.Join(validation.Index(validation.Join(validation.Join(emiPath, k.key), g.key+".filters"), j), "issuerFilter")
					r.unknown(p, f.IssuerFilter.Issuers, known, "EMI issuer")
				}
			}
		}
	}
}

// note records a note once, in the order met.
func (r *pageRules) note(n string) {
	if !r.noted[n] {
		r.noted[n] = true
		r.notes = append(r.notes, n)
	}
}

// finish adds the notes that depend on the whole page and returns them.
func (r *pageRules) finish(opts []PageOption) []string {
	if r.narrowed {
		if r.allow {
			r.note(noteNarrowTrue)
		} else {
			r.note(noteNarrowFalse)
		}
	}
	anyVisible, cardShown, cardEMI := false, false, false
	for _, o := range opts {
		anyVisible = anyVisible || o.Visible
		cardShown = cardShown || o.Visible && o.Card != nil
		cardEMI = cardEMI || o.Visible && o.Plan != nil && o.Plan.Group != emiGroupCardless
	}
	if cardEMI && !cardShown {
		r.note(noteCardEMI)
	}
	if !anyVisible {
		r.note(noteNothing)
	}
	return r.notes
}
