package checkouttest

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
)

// The hosted payment page: payment_links.web (and mobile, iframe) of every
// order leads to /orders/{id}/payment-page, where a tester sees the options
// the session's payment_filter and sdk_udf leave visible (PreviewPage), the
// product summary, and pays with an outcome. Paying moves the order as Pay,
// Fail do (or leaves it pending), sends the webhook, and redirects to the
// order's return_url, signed as checkout.VerifyReturn expects.

//go:embed page.html.tmpl
var pageTemplateText string

// pageSetup is what a session asked the page to show. It is not changed
// once stored: a new session for the order replaces it.
type pageSetup struct {
	filter  *paymentfilter.Filter
	udf     emi.Visibility
	summary productsummary.Summary
}

// The outcomes a tester can pay with, the form's "outcome" values.
const (
	outcomeSuccess = "success"
	outcomeFailure = "failure"
	outcomePending = "pending"
)

// readings are how the fake reads what the spec leaves open, shown on
// every page.
func readings() []string {
	return []string{
		"The cards, UPI apps and handles, wallets, banks, providers and EMI plans are the fake's own catalogue: the spec does not publish the service's lists.",
		"Only the first option block of a paymentMethodType counts, as the service honours only the first.",
		"The lists of one card filter must all match (brand, type, sub type, bank, BIN range); any value of a list matches.",
		"A UPI filter with upiType INTENT speaks of apps, COLLECT of handles, none of both.",
		"EMI plans of the credit and debit groups match an emiFilter's paymentMethodType CARD and paymentMethod CARD, as the service's samples write them; cardless plans match CONSUMER_FINANCE and CARDLESS (the spec does not say).",
		"Without sdk_udf and emiOptions, EMI follows allowDefaultOptions; the spec gives no default for sdk_udf.",
		"Paying with pending leaves the order " + StatusPendingVBV + " and sends TXN_CREATED when that event is enabled; the spec shows no transitions.",
	}
}

// pageView is what the template draws.
type pageView struct {
	OrderID, Amount, Description string
	Status                       string
	StatusID                     int
	Mobile, Iframe               bool
	Action                       string
	Summary                      *summaryView
	Sections                     []sectionView
	Outcomes                     []choiceView
	Notes, Readings              []string
	Error                        string
	// Payable is false once the order is paid: the page shows the result
	// instead of the form.
	Payable bool
	// Offered is false when the filter leaves nothing to pay with.
	Offered bool
	Result  string
}

// sectionView is one fieldset of options; Hidden lists, as text, what
// the filter hides in it.
type sectionView struct {
	Title   string
	Options []choiceView
	Hidden  []PageOption
	// CardNumber asks for a card number whose BIN the filter's ranges
	// check (in the cards section, when the filter names BIN ranges).
	CardNumber bool
	// HiddenWhy is the one reason the filter hides every option of the
	// section, "" when it shows some or hides them for several reasons.
	HiddenWhy string
}

type choiceView struct {
	ID, Value, Label string
	Checked          bool
}

// servePaymentPage answers GET (the page) and POST (paying) of
// /orders/{id}/payment-page, id being the service's order id.
func (s *Server) servePaymentPage(w http.ResponseWriter, r *http.Request, body []byte, id string) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		v, _, ok := s.page(id, r.URL.Query())
		if !ok {
			http.Error(w, "no such order", http.StatusNotFound)
			return
		}
		writePage(w, http.StatusOK, v)
	case http.MethodPost:
		if why := crossSite(r); why != "" {
			http.Error(w, why, http.StatusForbidden)
			return
		}
		s.payOnPage(w, r, body, id)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// orderByID returns the order with the service's id. Called with s.mu held.
func (s *Server) orderByID(id string) *order {
	for _, o := range s.orders {
		if o.id == id {
			return o
		}
	}
	return nil
}

// page builds the page of the order with the service's id, and the
// preview of its options; false when no order has that id. q is the
// page's query: mobile=true and iframe=true mark the mobile and iframe
// links.
func (s *Server) page(id string, q url.Values) (*pageView, *PagePreview, bool) {
	s.mu.Lock()
	o := s.orderByID(id)
	if o == nil {
		s.mu.Unlock()
		return nil, nil, false
	}
	v := &pageView{
		OrderID: o.orderID, Amount: pageAmount(o.amount, o.currency), Description: o.description,
		Status: o.status, StatusID: statusID(o.status),
		Mobile: q.Get("mobile") == "true", Iframe: q.Get("iframe") == "true",
		Action: "/orders/" + url.PathEscape(id) + "/payment-page", Readings: readings(),
	}
	setup := o.page
	v.Payable = payable(o.status)
	s.mu.Unlock()
	if v.Mobile || v.Iframe {
		v.Action += "?" + q.Encode()
	}
	var p *PagePreview
	if setup == nil {
		p = PreviewPage(nil, "")
		p.Notes = []string{"This order was made by POST /orders, which carries no payment_filter, sdk_udf or product_summary: the page shows every option of the catalogue."}
	} else {
		p = PreviewPage(setup.filter, setup.udf)
		v.Summary = newSummaryView(setup.summary)
	}
	v.Notes, v.Offered = p.Notes, len(p.Visible()) > 0
	if v.Iframe {
		v.Notes = append(v.Notes, "This is the iframe link: the form opens what follows in the top window, since a page without script cannot move only the final redirect out of the frame.")
	}
	v.Sections = sections(p)
	for i := range v.Sections {
		sec := &v.Sections[i]
		sec.CardNumber = p.BINCheck && sec.Title == sectionCards && len(sec.Options) > 0
		if len(sec.Options) == 0 && !slices.ContainsFunc(sec.Hidden, func(o PageOption) bool { return o.Why != sec.Hidden[0].Why }) {
			sec.HiddenWhy = sec.Hidden[0].Why
		}
	}
	v.Outcomes = []choiceView{
		{ID: "outcome-success", Value: outcomeSuccess, Label: "Success: the order is charged", Checked: true},
		{ID: "outcome-failure", Value: outcomeFailure, Label: "Failure: the bank declines"},
		{ID: "outcome-pending", Value: outcomePending, Label: "Pending: the payment waits for authentication"},
	}
	if !v.Payable {
		v.Result = "This order is " + v.Status + " (status_id " + strconv.Itoa(v.StatusID) + "): there is nothing left to pay."
	}
	return v, p, true
}

// payable reports whether the page offers to pay an order in status st.
func payable(st string) bool {
	switch st {
	case StatusCreated, StatusNew, StatusStarted, StatusAuthorizationFailed, StatusPendingVBV:
		return true
	}
	return false
}

// sections groups the options by heading, EMI plans by kind and group,
// keeping page order.
func sections(p *PagePreview) []sectionView {
	var out []sectionView
	for i, o := range p.Options {
		title := o.Section
		if o.Plan != nil {
			title = planSection(*o.Plan)
		}
		if len(out) == 0 || out[len(out)-1].Title != title {
			out = append(out, sectionView{Title: title})
		}
		sec := &out[len(out)-1]
		if o.Visible {
			sec.Options = append(sec.Options, choiceView{ID: "option-" + strconv.Itoa(i), Value: o.Value, Label: o.Label})
		} else {
			sec.Hidden = append(sec.Hidden, o)
		}
	}
	return out
}

func planSection(p PagePlan) string {
	if p.Group == emiGroupCardless {
		return kindName(p.Kind) + ", cardless"
	}
	return kindName(p.Kind) + ", " + p.Group + " cards"
}

// payOnPage pays the order with the option and outcome the tester chose.
func (s *Server) payOnPage(w http.ResponseWriter, r *http.Request, body []byte, id string) {
	form, err := url.ParseQuery(string(body))
	v, p, ok := s.page(id, r.URL.Query())
	switch {
	case !ok:
		http.Error(w, "no such order", http.StatusNotFound)
		return
	case err != nil || mediaType(r) != "application/x-www-form-urlencoded":
		v.Error = "The payment form could not be read."
		writePage(w, http.StatusBadRequest, v)
		return
	}
	value, outcome := form.Get("option"), form.Get("outcome")
	check(v, value, outcome)
	opt, offered := p.Option(value)
	switch {
	case !v.Payable:
		writePage(w, http.StatusConflict, v)
		return
	case value == "":
		v.Error = "Choose a payment option."
	case !offered || !opt.Visible:
		v.Error = "The option " + strconv.Quote(value) + " is not offered on this page."
		if offered {
			v.Error += " " + opt.Why + "."
		}
	case outcome != outcomeSuccess && outcome != outcomeFailure && outcome != outcomePending:
		v.Error = "Choose an outcome: success, failure or pending."
	case opt.Card != nil && form.Get("card_number") != "":
		number := strings.ReplaceAll(form.Get("card_number"), " ", "")
		if len(number) < 12 || len(number) > 19 || !digits(number) {
			v.Error = "A card number is 12 to 19 digits."
		} else if ok, why := p.checkCard(value, number); !ok {
			v.Error = "The filter does not accept this card: " + why + "."
		}
	}
	if v.Error != "" {
		writePage(w, http.StatusUnprocessableEntity, v)
		return
	}
	final := map[string]string{outcomeSuccess: StatusCharged, outcomeFailure: StatusAuthorizationFailed, outcomePending: StatusPendingVBV}[outcome]
	s.mu.Lock()
	var orderID, returnURL string
	if o := s.orderByID(id); o != nil {
		orderID, returnURL = o.orderID, o.returnURL
	}
	s.mu.Unlock()
	if err := s.attempt(orderID, pagePayment(opt), final); err != nil {
		v.Error = "The fake could not pay the order: " + err.Error()
		writePage(w, http.StatusConflict, v)
		return
	}
	to, err := s.ReturnURL(orderID)
	if err == nil {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	v, _, _ = s.page(id, r.URL.Query())
	if returnURL != "" {
		v.Notes = append(v.Notes, "The order has a return_url, but the redirect cannot be signed ("+err.Error()+
			"): set Config.ResponseKey (checkout fake --response-key). The result is shown here instead.")
	}
	v.Result = "Paid with " + opt.Label + " (" + opt.Value + "): the order is now " + v.Status + " (status_id " + strconv.Itoa(v.StatusID) + ")."
	writePage(w, http.StatusOK, v)
}

// check marks the tester's choices in v, so a page shown again with an
// error keeps them.
func check(v *pageView, value, outcome string) {
	for i := range v.Sections {
		for j := range v.Sections[i].Options {
			c := &v.Sections[i].Options[j]
			c.Checked = c.Value == value
		}
	}
	if outcome == "" {
		return
	}
	for i := range v.Outcomes {
		v.Outcomes[i].Checked = v.Outcomes[i].Value == outcome
	}
}

// pagePayment is the payment method the order status reports for an
// option, as the service's published order statuses write them.
func pagePayment(o PageOption) Payment {
	switch {
	case o.Card != nil:
		return Payment{MethodType: string(paymentfilter.Card), Method: o.Card.Brand}
	case o.Plan != nil:
		return Payment{MethodType: string(o.Plan.MethodType), Method: o.Plan.Method}
	case o.Type == string(paymentfilter.UPI):
		return Payment{MethodType: o.Type, Method: string(paymentfilter.UPI)}
	}
	return Payment{MethodType: o.Type, Method: o.Method}
}

// writePage renders v. The page loads no script and nothing from another
// host but the product summary's images, which the merchant chose.
func writePage(w http.ResponseWriter, status int, v *pageView) {
	t, err := template.New("page").Parse(pageTemplateText)
	var buf bytes.Buffer
	if err == nil {
		err = t.Execute(&buf, v)
	}
	if err != nil {
		http.Error(w, "checkouttest: render payment page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
