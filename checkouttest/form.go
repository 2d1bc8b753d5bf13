package checkouttest

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The form calls as the fake reads them: POST /orders (spec §2.7), POST
// /orders/{order_id}, the refunds and the customer calls. Each form is
// read key by key with the keys the service documents written out here,
// in the fake's own small model of each request, so a key the client
// misspells or mis-cases is a key the fake refuses or does not see, as the
// service would.

// addressFields are the parts of billing_address_* and shipping_address_*.
var addressFields = []string{"first_name", "last_name", "line1", "line2", "line3", "city", "state", "country",
	"postal_code", "phone", "country_code_iso"}

// formIn is a form being read: each key once, the keys read so far, and
// where problems go.
type formIn struct {
	form url.Values
	read []string
	p    *problems
}

// readForm parses a form body; a wrong content type or a malformed form is
// a problem.
func readForm(p *problems, r *http.Request, body []byte) *formIn {
	if mt := mediaType(r); mt != "application/x-www-form-urlencoded" {
		p.bad("Content-Type", fmt.Sprintf("must be application/x-www-form-urlencoded, got %q", r.Header.Get("Content-Type")))
		return nil
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		p.bad("body", "is not a well-formed form: "+err.Error())
		return nil
	}
	return &formIn{form: form, p: p}
}

// formOK reads the form of r with read and, when the service would refuse
// it, writes the refusal (with the problems p already holds); it reports
// whether the handler goes on.
func formOK[T any](w http.ResponseWriter, p *problems, r *http.Request, body []byte, read func(*formIn) T) (T, bool) {
	var req T
	if f := readForm(p, r, body); f != nil {
		req = read(f)
	}
	if !p.empty() {
		p.write(w)
		return req, false
	}
	return req, true
}

// versionedFormOK is formOK for the calls whose version header is
// optional: the header is checked as optionalVersion checks it.
func versionedFormOK[T any](w http.ResponseWriter, r *http.Request, body []byte, read func(*formIn) T) (T, bool) {
	p := &problems{}
	optionalVersion(p, r)
	return formOK(w, p, r, body, read)
}

// text returns the value of key, "" when absent; a required key that is
// absent or blank is missing. A key sent more than once, or whose value is
// not UTF-8, is a problem: a field holds one text.
func (f *formIn) text(key string, required bool) string {
	f.read = append(f.read, key)
	vals, ok := f.form[key]
	switch {
	case !ok || len(vals) == 1 && strings.TrimSpace(vals[0]) == "":
		if required {
			f.p.miss(key)
		}
		if ok {
			return vals[0]
		}
		return ""
	case len(vals) != 1:
		f.p.bad(key, "is sent "+strconv.Itoa(len(vals))+" times")
		return ""
	case !utf8.ValidString(vals[0]):
		f.p.bad(key, "is not valid UTF-8")
		return ""
	}
	return vals[0]
}

// flag returns the value of key as a boolean: "true" or "false".
func (f *formIn) flag(key string) bool {
	text := f.text(key, false)
	if text != "" && text != "true" && text != "false" {
		f.p.bad(key, strconv.Quote(text)+" is neither true nor false")
	}
	return text == "true"
}

// amount returns the amount at key in minor units, and whether it is there.
func (f *formIn) amount(key string, required bool) (int64, bool) {
	text := f.text(key, required)
	if text == "" {
		return 0, false
	}
	minor, msg := parseAmount(text)
	if msg != "" {
		f.p.bad(key, msg)
		return 0, false
	}
	return minor, true
}

// positive is amount for a refund: more than 0 when it is there.
func (f *formIn) positive(key string, required bool) (int64, bool) {
	minor, ok := f.amount(key, required)
	if ok && minor == 0 {
		f.p.bad(key, "must be more than 0")
		return 0, false
	}
	return minor, ok
}

// addresses reads the billing and shipping address keys (kept only as
// read: the order status does not show them).
func (f *formIn) addresses() {
	for _, prefix := range []string{"billing_address_", "shipping_address_"} {
		for _, k := range addressFields {
			f.text(prefix+k, false)
		}
	}
}

// kept returns the udf1…udf10 and metadata.<key> values of the form, by
// key: the fields an order keeps and its status shows.
func (f *formIn) kept() (udf, metadata map[string]string) {
	udf, metadata = map[string]string{}, map[string]string{}
	for i := 1; i <= 10; i++ {
		k := "udf" + strconv.Itoa(i)
		if v := f.text(k, false); v != "" {
			udf[k] = v
		}
	}
	for _, k := range slices.Sorted(maps.Keys(f.form)) {
		name, isMeta := strings.CutPrefix(k, "metadata.")
		if isMeta && k != gatewayRefKey && k != "metadata.webhook_url" && k != "metadata.subvention_amount" {
			metadata[name] = f.text(k, false)
		}
	}
	return udf, metadata
}

// done refuses the keys that are a key read in another case, which the
// service would not see. Call it after reading every key.
func (f *formIn) done() {
	for _, k := range slices.Sorted(maps.Keys(f.form)) {
		if slices.Contains(f.read, k) {
			continue
		}
		for _, r := range f.read {
			if strings.EqualFold(r, k) {
				f.p.bad(k, "is not a key the service reads: keys are case sensitive, did you mean "+strconv.Quote(r)+"?")
				break
			}
		}
	}
}

// orderIn is what the fake keeps of an order form.
type orderIn struct {
	orderID, currency, productID, returnURL, description string
	customerID, customerEmail, customerPhone             string
	amount                                               int64
	webhookURL, gatewayRef                               string
	clientAuthToken                                      bool
	links                                                []linkIn // nil: none asked for
	udf, metadata                                        map[string]string
}

// readOrder reads the form of POST /orders: order_id and amount are
// required; payment_collection_link_details is JSON text (readLinks).
func readOrder(f *formIn) *orderIn {
	o := &orderIn{}
	o.orderID = f.text("order_id", true)
	o.amount, _ = f.amount("amount", true)
	o.currency = f.text("currency", false)
	o.customerID = f.text("customer_id", false)
	o.customerEmail = f.text("customer_email", false)
	o.customerPhone = f.text("customer_phone", false)
	o.productID = f.text("product_id", false)
	o.returnURL = f.text("return_url", false)
	o.description = f.text("description", false)
	f.addresses()
	f.amount("metadata.subvention_amount", false)
	o.gatewayRef = f.text(gatewayRefKey, false)
	if u := f.text("metadata.webhook_url", false); u != "" {
		if err := checkWebhookURL(u); err != nil {
			f.p.bad("metadata.webhook_url", err.Error())
		}
		o.webhookURL = u
	}
	o.clientAuthToken = f.flag("options.get_client_auth_token")
	f.text("options.get_payment_collection_link", false) // a truthy flag; the details say what is asked
	if text := f.text("payment_collection_link_details", false); text != "" {
		o.links = readLinks(f.p, "payment_collection_link_details", text)
	}
	o.udf, o.metadata = f.kept()
	f.done()
	return o
}

// updateIn is what the fake keeps of an order update form.
type updateIn struct {
	amount        int64
	hasAmount     bool
	udf, metadata map[string]string
}

// readUpdateOrder reads the form of POST /orders/{order_id}: a new amount,
// addresses, udf and metadata fields, all optional.
func readUpdateOrder(f *formIn) *updateIn {
	u := &updateIn{}
	u.amount, u.hasAmount = f.amount("amount", false)
	f.addresses()
	u.udf, u.metadata = f.kept()
	f.done()
	return u
}

// refundIn is a refund of an order (POST /orders/{order_id}/refunds, the
// older POST /order/refund, and its JWE+JWS form) or of a transaction
// (POST /refunds).
type refundIn struct {
	uniqueRequestID string
	amount          int64 // 0: all that is left
	txnID, orderID  string
	refundType      string
}

// refundTypes are the refund_type values; the set is open, but a known
// value in another case is refused.
var refundTypes = []string{"STANDARD", "INSTANT", "INSTANT_WITH_FALLBACK"}

// readRefund reads an order refund: unique_request_id is required, amount
// (more than 0) optional; other keys are ignored, as the service ignores
// them.
func readRefund(f *formIn) *refundIn {
	r := &refundIn{uniqueRequestID: f.text("unique_request_id", true)}
	r.amount, _ = f.positive("amount", false)
	f.done()
	return r
}

// readTxnRefund reads the form of POST /refunds: unique_request_id, and
// txn_id or order_id, are required.
func readTxnRefund(f *formIn) *refundIn {
	r := &refundIn{uniqueRequestID: f.text("unique_request_id", true)}
	r.txnID = f.text("txn_id", false)
	r.orderID = f.text("order_id", false)
	if r.txnID == "" && r.orderID == "" {
		f.p.miss("txn_id")
	}
	r.amount, _ = f.positive("amount", false)
	r.refundType = f.text("refund_type", false)
	if msg := enumProblem(r.refundType, refundTypes, false); r.refundType != "" && msg != "" {
		f.p.bad("refund_type", msg)
	}
	f.done()
	return r
}

// customerIn is a customer form: the details, and for a create its
// object_reference_id.
type customerIn struct {
	objectReferenceID string
	details           map[string]string // mobile_number, email_address, … as sent
	clientAuthToken   bool
}

// customerDetailKeys are the details a customer form sets.
var customerDetailKeys = []string{"mobile_number", "email_address", "first_name", "last_name", "mobile_country_code"}

// readCustomer reads a customer form; create requires object_reference_id
// and mobile_number.
func readCustomer(f *formIn, create bool) *customerIn {
	c := &customerIn{details: map[string]string{}}
	if create {
		c.objectReferenceID = f.text("object_reference_id", true)
	}
	for _, k := range customerDetailKeys {
		if v := f.text(k, create && k == "mobile_number"); v != "" {
			c.details[k] = v
		}
	}
	if create {
		c.clientAuthToken = f.flag("options.get_client_auth_token")
	}
	f.done()
	return c
}
