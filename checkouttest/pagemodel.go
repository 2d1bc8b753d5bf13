package checkouttest

import (
	"slices"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// PageOption is one payment option of the fake's hosted payment page (see
// [PreviewPage]): a card ([PageCard]), a UPI app or collect handle, a
// wallet, a bank, a pay-later provider, reward points, cash, or an EMI
// plan ([PagePlan]), and whether the filter leaves it visible.
type PageOption struct {
	// Value is the value of the option's form control on the page. It
	// starts with the payment method type, then what tells the option
	// apart: "CARD:CREDIT:VISA:ICICI:PLATINUM", "UPI:GPAY" (an app),
	// "UPI:@ybl" (a collect handle), "WALLET:PAYTM", "NB:NB_HDFC",
	// "CONSUMER_FINANCE:ZESTMONEY", "REWARD:TWID", "CASH:CASH", and
	// "EMI:noCostEmi:credit:SVC_ICICI:9" for EMI plans.
	Value string
	// Type is the option's payment method type (CARD, UPI, WALLET, NB,
	// CONSUMER_FINANCE, REWARD, CASH), or "EMI" for an EMI plan.
	Type string
	// Section is the heading the page lists the option under, such as
	// "Cards", "UPI apps" or "EMI".
	Section string
	// Method is the code a filter names the option by: the card brand, the
	// UPI app or handle, the wallet, bank or provider code, or the EMI
	// issuer.
	Method string
	// Label is the text beside the option's control.
	Label string
	// Visible reports whether the page shows the option as a control. A
	// hidden option is not on the page as a control.
	Visible bool
	// Why says what decided Visible: the filter entry, by its JSON path
	// ("payment_filter.options[0].cardFilters[1] (enable: false) matches
	// it"), sdk_udf, or allowDefaultOptions for what no entry decides.
	Why string
	// Card is the test card of a CARD option; nil for the others.
	Card *PageCard
	// Plan is the plan of an EMI option; nil for the others.
	Plan *PagePlan
}

// PagePreview is what the fake's payment page offers for a payment filter
// and an sdk_udf value: the page and the checkout command's filter
// --preview both show it. Make one with [PreviewPage]; a [PageOption]'s
// Value is what the page's form posts to pay with it.
type PagePreview struct {
	// Options are every option of the fake's catalogue, visible or not,
	// in page order.
	Options []PageOption
	// Notes say, for this filter, where the spec is silent and how the
	// fake reads it, and which of the filter's codes match nothing in the
	// fake's catalogue.
	Notes []string
	// BINCheck reports whether the filter names BIN ranges: the page then
	// asks for a card number and checks its BIN as the filter says.
	BINCheck bool

	rules *pageRules
}

// PreviewPage returns the options the fake's payment page shows for a
// session with payment filter f (the session's [paymentfilter.Filter];
// nil: none sent) and sdk_udf value udf (its [emi.Visibility]; "": none
// sent), following the spec's payment-locking and EMI rules (the package
// doc lists them). Where the spec leaves a combination open, the fake
// applies the same rule at every level and says so in
// [PagePreview].Notes, with each option's [PageOption].Why. PreviewPage
// does not validate f ([paymentfilter.Filter.Validate] does, before a page
// exists): what an invalid filter means here is noted, not refused.
func PreviewPage(f *paymentfilter.Filter, udf emi.Visibility) *PagePreview {
	r := newPageRules(f, udf)
	p := &PagePreview{rules: r}
	for _, c := range catalogCards() {
		d := r.card(c, c.BIN)
		p.add(PageOption{Value: cardValue(c), Type: string(paymentfilter.Card), Section: sectionCards, Method: c.Brand,
			Label: cardLabel(c), Card: &c}, d)
	}
	for _, a := range catalogUPIApps() {
		p.add(PageOption{Value: "UPI:" + a.code, Type: string(paymentfilter.UPI), Section: sectionUPIApps, Method: a.code,
			Label: a.name}, r.upi(a.code, paymentfilter.Intent))
	}
	for _, h := range catalogUPIHandles() {
		p.add(PageOption{Value: "UPI:" + h, Type: string(paymentfilter.UPI), Section: sectionUPIIDs, Method: h,
			Label: "UPI ID ending " + h}, r.upi(h, paymentfilter.Collect))
	}
	for _, group := range catalogMethods() {
		for _, m := range group.methods {
			p.add(PageOption{Value: string(group.t) + ":" + m.code, Type: string(group.t), Section: group.section, Method: m.code,
				Label: m.name}, r.method(group.t, m.code))
		}
	}
	for _, pl := range catalogPlans() {
		p.add(PageOption{Value: planValue(pl), Type: typeEMI, Section: sectionEMI, Method: pl.Issuer,
			Label: planLabel(pl), Plan: &pl}, r.plan(pl))
	}
	p.BINCheck = r.binRanges
	p.Notes = r.finish(p.Options)
	return p
}

func (p *PagePreview) add(o PageOption, d decision) {
	o.Visible, o.Why = d.resolve(p.rules.allow)
	p.Options = append(p.Options, o)
}

// Visible returns the options the page shows as controls, in page order.
func (p *PagePreview) Visible() []PageOption {
	var out []PageOption
	for _, o := range p.Options {
		if o.Visible {
			out = append(out, o)
		}
	}
	return out
}

// Option returns the option whose control has the given value.
func (p *PagePreview) Option(value string) (PageOption, bool) {
	for _, o := range p.Options {
		if o.Value == value {
			return o, true
		}
	}
	return PageOption{}, false
}

// checkCard reports whether the card option value, paid with a card
// number starting with number's BIN instead of the test card's, is
// visible, and why.
func (p *PagePreview) checkCard(value, number string) (bool, string) {
	o, ok := p.Option(value)
	if !ok || o.Card == nil {
		return false, "not a card option"
	}
	return p.rules.card(*o.Card, number).resolve(p.rules.allow)
}

// decision is what a rule says of an option: shown, hidden, or left to
// allowDefaultOptions (open), with why.
type decision struct {
	state int
	why   string
}

const (
	open = iota
	shown
	hidden
)

func show(why string) decision { return decision{shown, why} }
func hide(why string) decision { return decision{hidden, why} }

// undecided is the decision left to allowDefaultOptions; scope says where
// no entry decided.
func undecided(scope string) decision { return decision{open, scope} }

// resolve returns whether the option is visible, and why.
func (d decision) resolve(allow bool) (bool, string) {
	switch {
	case d.state == shown:
		return true, d.why
	case d.state == hidden:
		return false, d.why
	case allow:
		return true, "allowDefaultOptions is true and " + d.why + " hides it"
	default:
		return false, "allowDefaultOptions is false and " + d.why + " selects it"
	}
}

// entry is one filter entry at a level: its enable flag, whether it
// matches the option, and its path.
type entry struct {
	enable, matches bool
	path            string
}

// level applies the entries of one level (the card filters of a block,
// the plan kinds of emiOptions, …) under the parent's decision. What a
// hiding entry matches is hidden, even when a showing one matches too;
// what a showing one matches is shown. What none matches keeps the
// parent's decision, except that when showing entries exist at this
// level, what they do not select is left to allowDefaultOptions: with
// false, only what enable: true entries select is displayed.
func (r *pageRules) level(parent decision, scope string, entries []entry) decision {
	if parent.state == hidden {
		return parent
	}
	var showBy, hideBy string
	anyShow := false
	for _, e := range entries {
		anyShow = anyShow || e.enable
		switch {
		case !e.matches:
		case !e.enable && hideBy == "":
			hideBy = e.path
		case e.enable && showBy == "":
			showBy = e.path
		}
	}
	switch {
	case hideBy != "":
		if showBy != "" {
			r.note(noteHideWins)
		}
		return hide(hideBy + " (enable: false) matches it")
	case showBy != "":
		return show(showBy + " (enable: true) matches it")
	case anyShow:
		r.narrowed = true
		return undecided("no enable: true entry of " + scope)
	}
	return parent
}

// pageRules evaluates a filter against the catalogue and gathers the
// notes on what it meets.
type pageRules struct {
	f         *paymentfilter.Filter
	udf       emi.Visibility
	allow     bool
	showOnly  bool
	blocks    map[paymentfilter.MethodType]int // first block of each type
	binRanges bool
	narrowed  bool
	notes     []string
	noted     map[string]bool
}

const filterPath = "payment_filter"

func newPageRules(f *paymentfilter.Filter, udf emi.Visibility) *pageRules {
	r := &pageRules{f: f, udf: udf, allow: true, blocks: map[paymentfilter.MethodType]int{}, noted: map[string]bool{}}
	if f == nil {
		r.note("The session sends no payment_filter: the page shows every option of the catalogue that sdk_udf leaves.")
		r.readUDF()
		return r
	}
	r.allow = f.AllowDefaultOptions
	r.showOnly = f.EMIOptions != nil && f.EMIOptions.ShowOnlyEMI != nil && *f.EMIOptions.ShowOnlyEMI
	for i, o := range f.Options {
		r.readBlock(i, o)
	}
	r.readUDF()
	r.readEMI()
	return r
}

// blockPath is the path of options[i].
func blockPath(i int) string { return validation.Index(validation.Join(filterPath, "options"), i) }

// block returns the first option block of type t and its index.
func (r *pageRules) block(t paymentfilter.MethodType) (*paymentfilter.Option, int) {
	i, ok := r.blocks[t]
	if !ok {
		return nil, -1
	}
	return &r.f.Options[i], i
}

// global is what hides an option before any block is read: showOnlyEmi
// hides all but EMI, ShowEMIWithoutCards hides the CARD method.
func (r *pageRules) global(t paymentfilter.MethodType) (decision, bool) {
	switch {
	case r.showOnly:
		return hide(validation.Join(filterPath, "emiOptions.showOnlyEmi") + " is true: EMI is the only visible instrument"), true
	case t == paymentfilter.Card && r.udf == emi.ShowWithoutCards:
		return hide("sdk_udf " + string(emi.ShowWithoutCards) + ": EMI is shown, the CARD method is not"), true
	}
	return decision{}, false
}

// typeLevel is the decision of t's block as a whole: nil-free blocks
// without paymentMethods show or hide the type; a block that names
// methods decides only those.
func (r *pageRules) typeLevel(t paymentfilter.MethodType) (decision, *paymentfilter.Option, int) {
	if d, ok := r.global(t); ok {
		return d, nil, -1
	}
	o, i := r.block(t)
	switch {
	case o == nil:
		return undecided("no option block for " + string(t)), nil, -1
	case t != paymentfilter.Card && t != paymentfilter.UPI && len(codes(o.PaymentMethods)) > 0:
		return undecided("no option block for " + string(t) + " as a whole"), o, i
	case o.Enable:
		return show(blockPath(i) + ": " + string(t) + " enable: true"), o, i
	default:
		return hide(blockPath(i) + ": " + string(t) + " enable: false hides the type"), o, i
	}
}

// method decides an option of a type filtered by paymentMethods.
func (r *pageRules) method(t paymentfilter.MethodType, code string) decision {
	d, o, i := r.typeLevel(t)
	if o == nil || d.state != open {
		return d
	}
	p := validation.Join(blockPath(i), "paymentMethods")
	return r.level(d, p, []entry{{enable: o.Enable, matches: slices.Contains(codes(o.PaymentMethods), code), path: p}})
}

// card decides a card whose number starts with bin.
func (r *pageRules) card(c PageCard, bin string) decision {
	return filtered(r, paymentfilter.Card, "cardFilters", "", func(o *paymentfilter.Option) []paymentfilter.CardFilter { return o.CardFilters },
		func(cf paymentfilter.CardFilter) (bool, bool, bool) { return cf.Enable, cardMatches(cf, c, bin), true })
}

// filtered decides by the filters (cardFilters, upiFilters) of t's block:
// judge gives each filter's enable, whether it matches, and whether it
// speaks of the option at all.
func filtered[F any](r *pageRules, t paymentfilter.MethodType, key, about string, list func(*paymentfilter.Option) []F, judge func(F) (enable, matches, speaks bool)) decision {
	d, o, i := r.typeLevel(t)
	if o == nil || d.state != shown {
		return d
	}
	scope := validation.Join(blockPath(i), key)
	var es []entry
	for j, f := range list(o) {
		if enable, matches, speaks := judge(f); speaks {
			es = append(es, entry{enable: enable, matches: matches, path: validation.Index(scope, j)})
		}
	}
	return r.level(d, scope+about, es)
}

// cardMatches reports whether every list cf gives matches the card; a
// filter with no list matches every card.
func cardMatches(cf paymentfilter.CardFilter, c PageCard, number string) bool {
	return (len(cf.CardBrands) == 0 || slices.Contains(cf.CardBrands, c.Brand)) &&
		(len(cf.CardTypes) == 0 || slices.Contains(cf.CardTypes, c.Type)) &&
		(len(cf.CardSubTypes) == 0 || slices.Contains(cf.CardSubTypes, c.SubType)) &&
		(len(cf.CardBanks) == 0 || slices.Contains(cf.CardBanks, c.Bank)) &&
		(len(cf.CardBins) == 0 || slices.ContainsFunc(cf.CardBins, func(b paymentfilter.BINRange) bool { return inRange(b, number) }))
}

// inRange reports whether the card number's first digits lie in the BIN
// range: its first len(From) digits are not below From and its first
// len(To) digits not above To.
func inRange(b paymentfilter.BINRange, number string) bool {
	if !digits(b.From) || !digits(b.To) || len(number) < max(len(b.From), len(b.To)) {
		return false
	}
	return number[:len(b.From)] >= b.From && number[:len(b.To)] <= b.To
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// upi decides a UPI app (kind INTENT) or collect handle (COLLECT). A UPI
// filter without upiType speaks of both kinds.
func (r *pageRules) upi(code string, kind paymentfilter.UPIType) decision {
	return filtered(r, paymentfilter.UPI, "upiFilters", " for "+string(kind), func(o *paymentfilter.Option) []paymentfilter.UPIFilter { return o.UPIFilters },
		func(u paymentfilter.UPIFilter) (bool, bool, bool) {
			return u.Enable, len(u.UPIMethods) == 0 || slices.Contains(u.UPIMethods, code), u.UPIType == "" || u.UPIType == kind
		})
}

// codes splits paymentMethods entries at commas: the service's own sample
// writes two wallets as the one entry "LAZYPAY,SIMPL".
func codes(methods []string) []string {
	var out []string
	for _, m := range methods {
		for c := range strings.SplitSeq(m, ",") {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}
