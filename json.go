package checkout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
)

// This file gives the root request and response types their encoding/json
// form: the request types encode as the wire body the client sends, and the
// response types decode with the client's own lenient decoder.

// MarshalJSON returns the JSON body CreateSession sends (spec §2.1): the
// service's flat keys ("mandate.max_amount", "metadata.webhook_url"),
// product_summary as a JSON string holding the array, mandate dates as Unix
// seconds in text, and the Extra keys; an empty field is left out. Note that
// json.Marshal escapes <, > and & in strings of what MarshalJSON returns
// (the same JSON value; the client itself sends them unescaped). It does
// not run Validate (so a
// request can be stored before it is complete), but it fails with a
// *ValidationError when the body could not say what the request says: text
// that is not valid UTF-8, or an Extra key that is empty, holds control
// characters or belongs to a typed field.
func (r SessionRequest) MarshalJSON() ([]byte, error) {
	var c valid.Collector
	r.checkEncodable(&c)
	if err := c.Err(); err != nil {
		return nil, err
	}
	return r.encode()
}

// errNilTarget is what an UnmarshalJSON method called on a nil pointer
// returns instead of panicking (encoding/json never makes such a call; a
// direct one may), as json.RawMessage does.
func errNilTarget(typ string) error {
	return fmt.Errorf("checkout: %s.UnmarshalJSON on nil pointer", typ)
}

// UnmarshalJSON reads a session request body as MarshalJSON writes it and
// as the service's samples show it: flat dotted keys, product_summary as a
// JSON string holding the array (productsummary.Parse), payment_filter as an
// object (paymentfilter.Filter), sdk_udf, the mandate keys with dates as Unix
// seconds in text, and every other key into Extra (numbers kept as
// json.Number, so their text is unchanged). It does not run Validate, and it
// changes no value: an amount such as "1.0" stays "1.0" (Validate reports
// it). One normalisation: a typed key given as a JSON number (the service's
// samples send "amount": 100) keeps the number's text exactly ("100", not
// "100.00") and MarshalJSON sends it back as a string. A typed key given as
// anything else (null, a boolean, an object), a date that is not canonical
// decimal seconds, invalid UTF-8, an other key that is empty or holds
// control characters, or a malformed payment_filter or
// product_summary is a *ValidationError naming the key; inside
// payment_filter and product_summary it names the exact path of the
// offending value, such as "payment_filter.options[1].enable" or
// "product_summary[1][1].type". JSON null leaves r unchanged.
//
// product_summary is held as a productsummary.Summary, so MarshalJSON
// writes its JSON text as package productsummary does: the same array, but
// not always the same characters (no blank space, its own key order, and
// its documented normalisations).
func (r *SessionRequest) UnmarshalJSON(data []byte) error {
	if r == nil {
		return errNilTarget("SessionRequest")
	}
	if wire.IsNull(data) {
		return nil
	}
	if !utf8.Valid(data) {
		return &ValidationError{Problems: []Problem{{Message: "session request is not valid UTF-8"}}}
	}
	b := bytes.TrimSpace(data)
	if len(b) == 0 || b[0] != '{' {
		return &ValidationError{Problems: []Problem{{Message: "session request must be a JSON object, not " + wire.KindOf(b)}}}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("checkout: session request: %w", err)
	}
	var (
		out SessionRequest
		c   valid.Collector
	)
	str := func(k string) (string, bool) {
		raw, ok := m[k]
		if !ok {
			return "", false
		}
		delete(m, k)
		if lenient.IsNumber(string(raw)) {
			return string(raw), true // the number's text, as sent
		}
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			c.Add(k, "must be a JSON string, not "+wire.KindOf(raw))
			return "", false
		}
		return s, true
	}
	set := func(k string, dst *string) {
		if s, ok := str(k); ok {
			*dst = s
		}
	}
	set("order_id", &out.OrderID)
	if s, ok := str("amount"); ok {
		out.Amount = Amount(s)
	}
	set("customer_id", &out.CustomerID)
	set("customer_phone", &out.CustomerPhone)
	set("customer_email", &out.CustomerEmail)
	set("payment_page_client_id", &out.PaymentPageClientID)
	if s, ok := str("action"); ok {
		out.Action = Action(s)
	}
	set("return_url", &out.ReturnURL)
	set("description", &out.Description)
	set("first_name", &out.FirstName)
	set("last_name", &out.LastName)
	if raw, ok := m["payment_filter"]; ok {
		delete(m, "payment_filter")
		f := new(paymentfilter.Filter)
		if err := f.UnmarshalJSON(raw); err != nil {
			mergeProblems(&c, "payment_filter", err)
		} else {
			out.PaymentFilter = f
		}
	}
	if s, ok := str("sdk_udf"); ok {
		out.EMI = emi.Visibility(s)
	}
	if s, ok := str("product_summary"); ok {
		ps, err := productsummary.Parse(s)
		if err != nil {
			addSummaryProblem(&c, err)
		} else {
			out.ProductSummary = ps
		}
	}
	var (
		md      Mandate
		mandate bool
	)
	if s, ok := str(keyCreateMandate); ok {
		md.Option, mandate = MandateOption(s), true
	}
	if s, ok := str(keyMandateMaxAmount); ok {
		md.MaxAmount, mandate = Amount(s), true
	}
	for _, d := range []struct {
		key string
		dst *time.Time
	}{{keyMandateStartDate, &md.StartDate}, {keyMandateEndDate, &md.EndDate}} {
		s, ok := str(d.key)
		if !ok {
			continue
		}
		mandate = true
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || strconv.FormatInt(n, 10) != s {
			c.Add(d.key, "must be Unix seconds in decimal text, like \"1644420442\"")
			continue
		}
		t := time.Unix(n, 0).UTC()
		if t.IsZero() || t.Unix() != n {
			// The zero time means "not sent", and a time.Time cannot hold
			// every int64 of seconds: either would change what is sent.
			c.Add(d.key, "is outside the dates a time.Time holds")
			continue
		}
		*d.dst = t
	}
	if mandate {
		out.Mandate = &md
	}
	set(keyGatewayReferenceID, &out.GatewayReferenceID)
	set(keyWebhookURL, &out.WebhookURL)
	for _, k := range sortedKeys(m) {
		if !checkExtraKey(&c, k) {
			continue
		}
		raw := m[k]
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			c.Add(k, "cannot be decoded: "+err.Error())
			continue
		}
		if out.Extra == nil {
			out.Extra = make(map[string]any, len(m))
		}
		out.Extra[k] = v
	}
	if err := c.Err(); err != nil {
		return err
	}
	*r = out
	return nil
}

// Values validates the request and returns the form CreateOrder sends
// (spec §2.7): one value per key, under the service's keys. A
// *ValidationError lists every problem, as from Validate.
func (r *OrderRequest) Values() (url.Values, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r.form()
}

// MarshalJSON returns the form of Values as a flat JSON object of strings
// ({"order_id": "o-1", "amount": "10.00", "metadata.webhook_url": …}), keys
// sorted, so that logging or storing a request shows what would be sent. It
// fails as Values does on an invalid request. There is no UnmarshalJSON:
// the form is the wire format of an order request, not JSON.
func (r OrderRequest) MarshalJSON() ([]byte, error) {
	v, err := r.Values()
	if err != nil {
		return nil, err
	}
	flat := make(map[string]string, len(v))
	for k, vs := range v {
		if len(vs) > 0 {
			flat[k] = vs[0]
		}
	}
	return marshalNoEscape(flat)
}

// rawCopy returns a copy of data: encoding/json may reuse the buffer it
// hands to UnmarshalJSON.
func rawCopy(data []byte) []byte { return bytes.Clone(data) }

// UnmarshalJSON decodes a session reply with the client's own lenient
// decoder (see CreateSession): Raw keeps the whole body and SDKPayload the
// exact bytes of sdk_payload. As for CreateSession, a body without an
// sdk_payload object is an error. JSON null leaves s unchanged.
func (s *Session) UnmarshalJSON(data []byte) error {
	if s == nil {
		return errNilTarget("Session")
	}
	if wire.IsNull(data) {
		return nil
	}
	d, err := decodeSession(rawCopy(data))
	if err != nil {
		return fmt.Errorf("checkout: session: %w", err)
	}
	*s = *d
	return nil
}

// MarshalJSON returns Raw when it is set, so a cached Session encodes as the
// service's own reply (Raw wins over edited fields: clear Raw to encode
// them). Without Raw it encodes the typed fields under the service's keys
// (status, id, order_id, payment_links, sdk_payload), leaving empty ones out.
func (s Session) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return json.Marshal(struct {
		Status       string          `json:"status,omitempty"`
		ID           string          `json:"id,omitempty"`
		OrderID      string          `json:"order_id,omitempty"`
		PaymentLinks *linksOut       `json:"payment_links,omitempty"`
		SDKPayload   json.RawMessage `json:"sdk_payload,omitempty"`
	}{s.Status, s.ID, s.OrderID, s.PaymentLinks.out(), s.SDKPayload})
}

// linksOut is the wire form of PaymentLinks.
type linksOut struct {
	Web    string `json:"web,omitempty"`
	Mobile string `json:"mobile,omitempty"`
	IFrame string `json:"iframe,omitempty"`
	Expiry string `json:"expiry,omitempty"`
}

func (l PaymentLinks) out() *linksOut {
	if l == (PaymentLinks{}) {
		return nil
	}
	return &linksOut{Web: l.Web, Mobile: l.Mobile, IFrame: l.IFrame, Expiry: formatTime(l.Expiry)}
}

// formatTime is the wire form of a reply's time: RFC 3339, "" for zero.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

// amountOut is the wire form of a reply's amount: a JSON number when the
// text is one (as the service sends it), else a string; nil when empty.
func amountOut(a Amount) any {
	switch {
	case a == "":
		return nil
	case lenient.IsNumber(string(a)):
		return json.Number(a)
	}
	return string(a)
}

// UnmarshalJSON decodes an order reply with the client's own lenient
// decoder (see CreateOrder); Raw keeps the whole body. JSON null leaves o
// unchanged.
func (o *Order) UnmarshalJSON(data []byte) error {
	if o == nil {
		return errNilTarget("Order")
	}
	if wire.IsNull(data) {
		return nil
	}
	d, err := decodeOrder(rawCopy(data))
	if err != nil {
		return fmt.Errorf("checkout: order: %w", err)
	}
	*o = *d
	return nil
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields under the service's keys (status,
// status_id, id, order_id, payment_links, links.payment_collection_links.QR
// and .INTENT, juspay.client_auth_token), leaving empty ones out.
func (o Order) MarshalJSON() ([]byte, error) {
	if len(o.Raw) > 0 {
		return o.Raw, nil
	}
	type collection struct {
		QR     string `json:"QR,omitempty"`
		Intent string `json:"INTENT,omitempty"`
	}
	type links struct {
		Collection collection `json:"payment_collection_links"`
	}
	type token struct {
		ClientAuthToken string `json:"client_auth_token"`
	}
	w := struct {
		Status       string    `json:"status,omitempty"`
		StatusID     int       `json:"status_id,omitempty"`
		ID           string    `json:"id,omitempty"`
		OrderID      string    `json:"order_id,omitempty"`
		PaymentLinks *linksOut `json:"payment_links,omitempty"`
		Links        *links    `json:"links,omitempty"`
		Token        *token    `json:"juspay,omitempty"`
	}{Status: o.Status, StatusID: o.StatusID, ID: o.ID, OrderID: o.OrderID, PaymentLinks: o.PaymentLinks.out()}
	if o.CollectionLinks != (CollectionLinkURLs{}) {
		w.Links = &links{collection{QR: o.CollectionLinks.QR, Intent: o.CollectionLinks.Intent}}
	}
	if o.ClientAuthToken != "" {
		w.Token = &token{o.ClientAuthToken}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes an order status reply with the client's own lenient
// decoder (see GetOrder); Raw keeps the whole body. JSON null leaves s
// unchanged.
func (s *OrderStatus) UnmarshalJSON(data []byte) error {
	if s == nil {
		return errNilTarget("OrderStatus")
	}
	if wire.IsNull(data) {
		return nil
	}
	d, err := decodeOrderStatus(rawCopy(data))
	if err != nil {
		return fmt.Errorf("checkout: order status: %w", err)
	}
	*s = *d
	return nil
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields under the service's keys
// (order_id, id, status, status_id, amount, …, refunds, date_created),
// amounts as JSON numbers as the service sends them, leaving empty ones out
// (refunded is always written).
func (s OrderStatus) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return json.Marshal(struct {
		OrderID            string    `json:"order_id,omitempty"`
		ID                 string    `json:"id,omitempty"`
		Status             string    `json:"status,omitempty"`
		StatusID           int       `json:"status_id,omitempty"`
		Amount             any       `json:"amount,omitempty"`
		EffectiveAmount    any       `json:"effective_amount,omitempty"`
		Currency           string    `json:"currency,omitempty"`
		Refunded           bool      `json:"refunded"`
		AmountRefunded     any       `json:"amount_refunded,omitempty"`
		Refunds            []Refund  `json:"refunds,omitempty"`
		TxnID              string    `json:"txn_id,omitempty"`
		TxnUUID            string    `json:"txn_uuid,omitempty"`
		PaymentMethodType  string    `json:"payment_method_type,omitempty"`
		PaymentMethod      string    `json:"payment_method,omitempty"`
		CustomerID         string    `json:"customer_id,omitempty"`
		CustomerEmail      string    `json:"customer_email,omitempty"`
		CustomerPhone      string    `json:"customer_phone,omitempty"`
		MerchantID         string    `json:"merchant_id,omitempty"`
		GatewayID          int       `json:"gateway_id,omitempty"`
		GatewayReferenceID string    `json:"gateway_reference_id,omitempty"`
		ReturnURL          string    `json:"return_url,omitempty"`
		ProductID          string    `json:"product_id,omitempty"`
		PaymentLinks       *linksOut `json:"payment_links,omitempty"`
		DateCreated        string    `json:"date_created,omitempty"`
	}{
		OrderID: s.OrderID, ID: s.ID, Status: s.Status, StatusID: s.StatusID,
		Amount: amountOut(s.Amount), EffectiveAmount: amountOut(s.EffectiveAmount),
		Currency: s.Currency, Refunded: s.Refunded, AmountRefunded: amountOut(s.AmountRefunded),
		Refunds: s.Refunds, TxnID: s.TxnID, TxnUUID: s.TxnUUID,
		PaymentMethodType: s.PaymentMethodType, PaymentMethod: s.PaymentMethod,
		CustomerID: s.CustomerID, CustomerEmail: s.CustomerEmail, CustomerPhone: s.CustomerPhone,
		MerchantID: s.MerchantID, GatewayID: s.GatewayID, GatewayReferenceID: s.GatewayReferenceID,
		ReturnURL: s.ReturnURL, ProductID: s.ProductID, PaymentLinks: s.PaymentLinks.out(),
		DateCreated: formatTime(s.DateCreated),
	})
}

// UnmarshalJSON decodes one element of an order's refunds[] with the
// client's lenient decoder (numbers as strings, "FILTERED", null). A value
// that is not a JSON object is an error.
func (r *Refund) UnmarshalJSON(data []byte) error {
	if r == nil {
		return errNilTarget("Refund")
	}
	if wire.IsNull(data) {
		return nil
	}
	var w refundWire
	if err := decodeObject(data, &w); err != nil {
		return fmt.Errorf("checkout: refund: %w", err)
	}
	*r = w.refund()
	return nil
}

// MarshalJSON encodes the refund under the service's keys (id,
// unique_request_id, ref, status, amount as a JSON number, created,
// sent_to_gateway, …), leaving empty ones out (sent_to_gateway is always
// written).
func (r Refund) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID              string `json:"id,omitempty"`
		UniqueRequestID string `json:"unique_request_id,omitempty"`
		Ref             string `json:"ref,omitempty"`
		Status          string `json:"status,omitempty"`
		Amount          any    `json:"amount,omitempty"`
		Created         string `json:"created,omitempty"`
		SentToGateway   bool   `json:"sent_to_gateway"`
		InitiatedBy     string `json:"initiated_by,omitempty"`
		RefundType      string `json:"refund_type,omitempty"`
		RefundSource    string `json:"refund_source,omitempty"`
		ErrorCode       string `json:"error_code,omitempty"`
		ErrorMessage    string `json:"error_message,omitempty"`
	}{
		ID: r.ID, UniqueRequestID: r.UniqueRequestID, Ref: r.Ref, Status: r.Status,
		Amount: amountOut(r.Amount), Created: formatTime(r.Created), SentToGateway: r.SentToGateway,
		InitiatedBy: r.InitiatedBy, RefundType: r.RefundType, RefundSource: r.RefundSource,
		ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
	})
}

// addSummaryProblem reports a product_summary decode error at the exact path
// of the offending value (such as "product_summary[1][1].type") that the
// *productsummary.DecodeError carries, with its message and underlying error
// but without the "productsummary: decode <path>:" prefix the path replaces.
// Any other error is reported at product_summary.
func addSummaryProblem(c *valid.Collector, err error) {
	var de *productsummary.DecodeError
	if !errors.As(err, &de) {
		mergeProblems(c, "product_summary", err)
		return
	}
	path := de.Path
	switch {
	case path == "":
		path = "product_summary"
	case path != "product_summary" && !strings.HasPrefix(path, "product_summary[") && !strings.HasPrefix(path, "product_summary."):
		// A path relative to the summary (a Line or an item decoded on its
		// own) is placed under the key.
		if strings.HasPrefix(path, "[") {
			path = "product_summary" + path
		} else {
			path = "product_summary." + path
		}
	}
	msg := de.Message
	if de.Err != nil {
		msg += ": " + de.Err.Error()
	}
	c.Add(path, msg)
}
