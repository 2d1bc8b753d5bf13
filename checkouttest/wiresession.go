package checkouttest

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
)

// The session request as the fake reads it (spec §2.1), with its own model
// rather than the client's request type: a client that encodes a key
// wrongly is refused here as the service would refuse it.

// serviceNamespace is the namespace of the gateway reference key,
// metadata.SERVICE:gateway_reference_id, as the spec writes it.
const serviceNamespace = "SERVICE"

// gatewayRefKey is the key of the gateway reference id in a session body
// and an order form.
const gatewayRefKey = "metadata." + serviceNamespace + ":gateway_reference_id"

// The actions of spec §2.1. The set is open: the service takes others,
// such as enach, whose published body the fake accepts; a known action in
// another case ("PaymentPage") is refused.
var sessionActions = []string{"paymentPage", "quickPay", "paymentManagement"}

// sdkUDFValues are the sdk_udf values of spec §2.5, a closed set.
var sdkUDFValues = []string{"showEMI", "hideEMI", "ShowEMIWithoutCards"}

// mandateOptions are the options.create_mandate values of spec §2.1.
var mandateOptions = []string{"REQUIRED", "OPTIONAL"}

// sessionIn is what the fake keeps of a session request it accepted.
type sessionIn struct {
	action        string
	orderID       string
	amount        int64
	hasAmount     bool
	customerID    string
	customerPhone string
	customerEmail string
	clientID      string
	returnURL     string
	currency      string
	description   string
	webhookURL    string
	gatewayRef    string
	upiDeepLinks  bool
	udf           map[string]string // udf1…udf10
	metadata      map[string]string // the other metadata.<key> text keys, by <key>
	page          *pageSetup
	members       map[string]json.RawMessage // every key as sent, for the sdk_payload
}

// payment reports whether the session is for a payment, which makes an
// order: any action but paymentManagement that names an order and an
// amount.
func (s *sessionIn) payment() bool {
	return s.action != "paymentManagement" && s.orderID != "" && s.hasAmount
}

// readSession reads a session body; the problems say what the service
// would refuse.
func readSession(p *problems, body []byte) *sessionIn {
	doc, ok := parseJSON(p, body)
	if !ok {
		return nil
	}
	o, ok := asObject(p, "", doc)
	if !ok {
		return nil
	}
	s := &sessionIn{udf: map[string]string{}, metadata: map[string]string{}, page: &pageSetup{}}
	s.action, _ = o.enum("action", true, sessionActions, false)
	forPayment := s.action == "paymentPage" || s.action == "quickPay"
	s.orderID, _ = o.text("order_id", forPayment)
	s.amount, s.hasAmount = o.amount("amount", forPayment)
	s.customerID, _ = o.text("customer_id", true)
	s.customerPhone, _ = o.text("customer_phone", forPayment)
	s.customerEmail, _ = o.text("customer_email", false)
	s.clientID, _ = o.text("payment_page_client_id", true)
	s.returnURL, _ = o.text("return_url", false)
	s.currency, _ = o.text("currency", false)
	s.description, _ = o.text("description", false)
	o.text("first_name", false)
	o.text("last_name", false)
	if f, ok := o.object("payment_filter", false); ok {
		readFilter(f)
	}
	udf, _ := o.enum("sdk_udf", false, sdkUDFValues, true)
	s.page.udf = emi.Visibility(udf)
	if text, ok := o.text("product_summary", false); ok {
		readSummary(p, "product_summary", text)
	}
	s.readMandate(o)
	s.gatewayRef, _ = o.text(gatewayRefKey, false)
	if u, ok := o.text("metadata.webhook_url", false); ok {
		if err := checkWebhookURL(u); err != nil {
			p.bad("metadata.webhook_url", err.Error())
		}
		s.webhookURL = u
	}
	s.upiDeepLinks = readTextFlag(o, "options.get_upi_deep_links")
	for i := 1; i <= 10; i++ {
		k := "udf" + strconv.Itoa(i)
		if v, ok := o.text(k, false); ok {
			s.udf[k] = v
		}
	}
	for k, v := range o.members {
		if name, isMeta := strings.CutPrefix(k, "metadata."); isMeta && k != gatewayRefKey && k != "metadata.webhook_url" {
			if text, ok := v.(string); ok {
				s.metadata[name] = text
			}
		}
	}
	o.done()
	if !p.empty() {
		return nil
	}
	_ = json.Unmarshal(body, &s.members) // an object: read above
	s.readPage()
	return s
}

// readMandate reads the mandate keys: options.create_mandate (REQUIRED or
// OPTIONAL), and with it mandate.max_amount (the older mandate_max_amount of the published
// payment-link bodies too), at least 1 as the service's published refusal
// says; the dates are Unix seconds, as text or a number.
func (s *sessionIn) readMandate(o *jsonObject) {
	hasOption := o.has("options.create_mandate") // even a wrong option asks for a mandate
	o.enum("options.create_mandate", false, mandateOptions, true)
	maxKey := "mandate.max_amount"
	if !o.has(maxKey) && o.has("mandate_max_amount") {
		maxKey = "mandate_max_amount"
	}
	o.read = append(o.read, "mandate.max_amount", "mandate_max_amount")
	if max, ok := o.amount(maxKey, hasOption); ok && max < 100 {
		o.p.bad(o.at(maxKey), "should be greater than or equal to 1")
	}
	for _, k := range []string{"mandate.start_date", "mandate.end_date"} {
		if t, ok := o.textOrNumber(k, false); ok && !isDigits(t) {
			o.p.bad(o.at(k), strconv.Quote(t)+" is not a numeric timestamp (Unix seconds)")
		}
	}
}

// readTextFlag reads a flag the service takes as "true"/"false" text (as
// the published bodies send it) or as a JSON boolean.
func readTextFlag(o *jsonObject, key string) bool {
	v, ok := o.get(key, false)
	if !ok {
		return false
	}
	switch v {
	case true, "true":
		return true
	case false, "false":
		return false
	}
	o.p.bad(o.at(key), `must be "true" or "false", not `+kindOf(v))
	return false
}

// readPage keeps what the payment page shows of an accepted session. The
// body passed the fake's own judgement above, so every key and value of
// its payment_filter and product_summary is exactly one the service reads;
// only then are they decoded into the client's paymentfilter and
// productsummary types, which the page and PreviewPage take (a merchant's
// own filter previews the same way).
func (s *sessionIn) readPage() {
	if raw := s.members["payment_filter"]; raw != nil {
		var f paymentfilter.Filter
		if json.Unmarshal(raw, &f) == nil {
			s.page.filter = &f
		}
	}
	var text string
	if raw := s.members["product_summary"]; raw != nil && json.Unmarshal(raw, &text) == nil {
		if sum, err := productsummary.Parse(text); err == nil {
			s.page.summary = sum
		}
	}
}
