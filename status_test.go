package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// Every documented status has its status_id (DESIGN §3); the
// service-declined status is recognised under any namespace.
func TestStatusIDs(t *testing.T) {
	for _, tt := range []struct {
		s     Status
		id    int
		final bool
	}{
		{StatusCreated, 1, false},
		{StatusNew, 10, false},
		{StatusStarted, 20, false},
		{StatusCharged, 21, true},
		{StatusServiceDeclined, 22, true},
		{"JUSPAY_DECLINED", 22, true},
		{"ACME_PAY2_DECLINED", 22, true},
		{StatusPendingVBV, 23, false},
		{StatusVBVSuccessful, 24, false},
		{StatusAuthorized, 25, false},
		{StatusAuthenticationFailed, 26, true},
		{StatusAuthorizationFailed, 27, true},
		{StatusAuthorizing, 28, false},
		{StatusCODInitiated, 29, false},
		{StatusVoided, 31, true},
		{StatusVoidInitiated, 32, false},
		{StatusCaptureInitiated, 33, false},
		{StatusCaptureFailed, 34, true},
		{StatusVoidFailed, 35, true},
		{StatusAutoRefunded, 36, true},
		{StatusNotFound, 40, false},
		{StatusPartialCharged, 37, false},
		{StatusToBeCharged, 38, false},
	} {
		t.Run(string(tt.s), func(t *testing.T) {
			require.Equal(t, tt.id, tt.s.ID())
			require.True(t, tt.s.Known())
			require.Equal(t, tt.final, tt.s.IsFinal())
			require.Equal(t, tt.id == 22, tt.s.IsServiceDeclined())
			require.Equal(t, string(tt.s), tt.s.String())
		})
	}
	for _, s := range []Status{"", "_DECLINED", "juspay_DECLINED", "JUSPAY-DECLINED", "DECLINED", "charged", "REFUNDED_LATER"} {
		require.Zero(t, s.ID(), "%q", s)
		require.False(t, s.Known(), "%q", s)
		require.False(t, s.IsFinal(), "%q", s)
		require.False(t, s.IsServiceDeclined(), "%q", s)
	}
}

func TestOrderStatusIsPaidIsFinal(t *testing.T) {
	for _, tt := range []struct {
		st          OrderStatus
		paid, final bool
	}{
		{OrderStatus{Status: StatusCharged, StatusID: 21}, true, true},
		{OrderStatus{Status: StatusAuthorized, StatusID: 25}, false, false},
		{OrderStatus{Status: StatusCODInitiated, StatusID: 29}, false, false},
		{OrderStatus{Status: StatusPendingVBV, StatusID: 23}, false, false},
		{OrderStatus{Status: StatusAutoRefunded, StatusID: 36}, false, true},
		{OrderStatus{Status: "JUSPAY_DECLINED", StatusID: 22}, false, true},
		{OrderStatus{Status: "Declined by us", StatusID: 22}, false, true}, // classified by status_id
		{OrderStatus{Status: "SOMETHING_NEW", StatusID: 99}, false, false},
		{OrderStatus{StatusID: 21}, false, false}, // the status itself says paid, nothing else
	} {
		require.Equal(t, tt.paid, tt.st.IsPaid(), "%+v", tt.st)
		require.Equal(t, tt.final, tt.st.IsFinal(), "%+v", tt.st)
	}
	var nilStatus *OrderStatus
	require.False(t, nilStatus.IsPaid())
	require.False(t, nilStatus.IsFinal())
}

// CheckPaid compares amounts as decimals: the text the service sends and
// the text the merchant expects need not be spelt alike.
func TestCheckPaid(t *testing.T) {
	charged := func(amount Amount) *OrderStatus {
		return &OrderStatus{OrderID: "o1", Status: StatusCharged, Amount: amount}
	}
	for _, tt := range []struct {
		name     string
		st       *OrderStatus
		expected Amount
		notPaid  bool   // matches ErrNotPaid
		msg      string // in the error; "" for no error
	}{
		{"same text", charged("1499.00"), "1499.00", false, ""},
		{"1 equals 1.00", charged("1"), "1.00", false, ""},
		{"1.0 equals 1", charged("1.00"), "1", false, ""},
		{"trailing zeros", charged("10.50"), "10.5000", false, ""},
		{"exponent", charged("1000.00"), "1e3", false, ""},
		{"one paisa short", charged("1498.99"), "1499.00", true, `order "o1" amount is 1498.99, expected 1499.00`},
		{"more than expected", charged("1500"), "1499.99", true, "expected 1499.99"},
		{"not charged", &OrderStatus{OrderID: "o1", Status: StatusPendingVBV, Amount: "1.00"}, "1.00", true, `order "o1" is PENDING_VBV, not CHARGED`},
		{"authorized only", &OrderStatus{OrderID: "o1", Status: StatusAuthorized, Amount: "1.00"}, "1.00", true, "AUTHORIZED"},
		{"no status", &OrderStatus{OrderID: "o1", Amount: "1.00"}, "1.00", true, "without status"},
		{"no amount", charged(""), "1.00", true, "no readable amount"},
		{"unreadable amount", charged("FILTERED"), "1.00", true, "no readable amount"},
		{"bad expectation", charged("1.00"), "one rupee", true, `expected amount "one rupee" is not a decimal`},
		{"empty expectation", charged("1.00"), "", true, `expected amount "" is not a decimal`},
		{"huge exponent", charged("1.00"), "1e999999999", true, "is not a decimal"},
		{"nil", nil, "1.00", true, "no order status"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.st.CheckPaid(tt.expected)
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, tt.notPaid, errors.Is(err, ErrNotPaid), "%v", err)
			require.Contains(t, err.Error(), tt.msg)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: check paid: "), err.Error())
		})
	}
}

// CreateOrder and CreateSession refuse a reply about another order, as
// GetOrder and Refund do, and the error quotes only the order asked for:
// reply data (where an echoed key may sit) never reaches it.
func TestCreateRefusesReplyAboutAnotherOrder(t *testing.T) {
	const other = `{"status":"NEW","id":"ordeh_2","order_id":"o2-SECRETKEY","sdk_payload":{"requestId":"r"}}`
	c, _ := replyingClient(t, other)
	ctx := context.Background()
	o, err := c.CreateOrder(ctx, fullOrder())
	require.Nil(t, o)
	// A write answered about another order may have taken effect: the
	// order is read (answered about the other order too), and the error
	// says to check before sending again.
	require.EqualError(t, err, `checkout: create order: POST /orders: decode response: the reply is about another order than "HD-1707740261"`+
		` (may have reached the service; check with GetOrder before resending)`)
	s, err := c.CreateSession(ctx, baseSession())
	require.Nil(t, s)
	require.EqualError(t, err, `checkout: create session: POST /session: decode response: the reply is about another order than "order_dummy_1"`+
		` (may have reached the service; check with GetOrder before resending)`)
	_, err = c.GetOrder(ctx, "o1")
	require.NotContains(t, err.Error(), "SECRETKEY")

	c, _ = replyingClient(t, `{"status":"NEW","id":"ordeh_2","sdk_payload":{"requestId":"r"}}`)
	_, err = c.CreateSession(ctx, baseSession())
	require.ErrorContains(t, err, `decode response: the reply names no order, where it must name "order_dummy_1"`,
		"a reply that names no order is no proof of being this one's")
	req := baseSession()
	req.Action, req.OrderID, req.Amount = PaymentManagement, "", ""
	c, _ = replyingClient(t, other)
	_, err = c.CreateSession(ctx, req)
	require.NoError(t, err, "a request that names no order has none to compare")
}

// decimalEqual compares an Amount with a JSON number read independently.
func decimalEqual(t *testing.T, want json.Number, got Amount) {
	t.Helper()
	if want == "" {
		require.Empty(t, got)
		return
	}
	w, ok := new(big.Rat).SetString(string(want))
	require.True(t, ok)
	g, ok := new(big.Rat).SetString(string(got))
	require.True(t, ok, "amount %q", got)
	require.Zero(t, w.Cmp(g), "want %s, got %s", want, got)
}

// jsonNumber reads a generic value as a number: a JSON number, or a string
// holding one.
func jsonNumber(v any) json.Number {
	switch x := v.(type) {
	case json.Number:
		return x
	case string:
		if _, ok := new(big.Rat).SetString(x); ok {
			return json.Number(x)
		}
	}
	return ""
}

func genericString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	}
	return ""
}

// Every valid published order and refund reply decodes, and the typed
// fields agree with a generic decoding of the same bytes.
func TestOrderStatusDecodeConformance(t *testing.T) {
	samples := append(conformance.Files(t, "orders", "*.json"), conformance.Files(t, "refunds", "*.json")...)
	valid := 0
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			if !s.ValidJSON() {
				_, err := decodeReply[OrderStatus](s.Data)
				require.Error(t, err)
				return
			}
			valid++
			dec := json.NewDecoder(strings.NewReader(string(s.Data)))
			dec.UseNumber()
			var m map[string]any
			require.NoError(t, dec.Decode(&m))
			if _, envelope := m["JWT"]; envelope { // the v4 reply is an encrypted envelope
				require.True(t, isSealed(s.Data), "the request path refuses it with ErrEnvelope")
				_, err := decodeReply[OrderStatus](s.Data)
				require.ErrorContains(t, err, "none of order_id, id, status")
				return
			}
			st, err := decodeReply[OrderStatus](s.Data)
			require.NoError(t, err)
			o, err := decodeReply[Order](s.Data)
			require.NoError(t, err)
			require.NotEmpty(t, st.OrderID, "every order and refund reply names its order")
			require.NotEmpty(t, st.Status)
			if _, ok := m["amount"]; ok {
				require.NotEmpty(t, st.Amount)
			}
			require.Equal(t, genericString(m["order_id"]), st.OrderID)
			require.Equal(t, genericString(m["status"]), string(st.Status))
			require.Equal(t, genericString(m["id"]), st.ID)
			decimalEqual(t, jsonNumber(m["amount"]), st.Amount)
			decimalEqual(t, jsonNumber(m["amount_refunded"]), st.AmountRefunded)
			if n := jsonNumber(m["status_id"]); n != "" {
				id, err := n.Int64()
				require.NoError(t, err)
				require.EqualValues(t, id, st.StatusID)
				require.EqualValues(t, id, o.StatusID)
			}
			require.Equal(t, genericString(m["txn_id"]), st.TxnID)
			require.Equal(t, genericString(m["payment_method_type"]), st.PaymentMethodType)
			require.EqualValues(t, m["refunded"] == true, st.Refunded)
			refunds, _ := m["refunds"].([]any)
			require.Len(t, st.Refunds, len(refunds))
			for i, r := range refunds {
				rm := r.(map[string]any)
				require.Equal(t, genericString(rm["unique_request_id"]), st.Refunds[i].UniqueRequestID)
				require.Equal(t, genericString(rm["status"]), string(st.Refunds[i].Status))
				decimalEqual(t, jsonNumber(rm["amount"]), st.Refunds[i].Amount)
			}
			if dc := genericString(m["date_created"]); dc != "" {
				want, err := time.Parse(time.RFC3339Nano, dc)
				require.NoError(t, err)
				require.True(t, want.Equal(st.DateCreated.Time))
			}
			require.Equal(t, genericString(m["order_id"]), o.OrderID)
			require.Equal(t, Status(genericString(m["status"])), o.Status)
			if links, ok := m["payment_links"].(map[string]any); ok {
				require.Equal(t, genericString(links["web"]), st.PaymentLinks.Web)
				require.Equal(t, genericString(links["web"]), o.PaymentLinks.Web)
			}
			require.Equal(t, string(s.Data), string(st.Raw))
		})
	}
	require.Greater(t, valid, 5)
}

// Redacted and mistyped fields are tolerated: "FILTERED" where an object is
// expected, numbers as strings, null everywhere.
func TestOrderStatusLenient(t *testing.T) {
	// The quirks the service's replies show: amounts as numbers or text,
	// "FILTERED" for a redacted block, amount or time, null anywhere, times
	// in several forms. A value of a JSON type the service never sends for
	// a field (a number for an id, text for a boolean) leaves that field
	// zero; Raw keeps everything.
	body := `{"order_id":"12345","id":null,"status":"CHARGED","status_id":21,"amount":9000,"currency":"INR",
		"refunded":"true","amount_refunded":"FILTERED","refunds":["FILTERED",{"unique_request_id":"r","amount":"1.5"},null],
		"payment_links":"FILTERED","card":"FILTERED","upi":null,"gateway_id":"23","date_created":"yesterday",
		"last_updated":"2016-08-02T08:07:52+0000","mandate":{"revokable_by_customer":"true","max_amount":"5000"},
		"metadata":{"payment_page_client_id":"shop","payment_links":{"web":"x"}},"unknown":{"deep":[1,2]}}`
	st, err := decodeReply[OrderStatus]([]byte(body))
	require.NoError(t, err)
	require.Equal(t, "12345", st.OrderID)
	require.Empty(t, st.ID)
	require.EqualValues(t, 21, st.StatusID)
	require.Equal(t, Amount("9000.00"), st.Amount)
	require.True(t, bool(st.Refunded), "a boolean sent as text reads")
	require.Empty(t, st.AmountRefunded)
	require.Len(t, st.Refunds, 3, "a redacted or null element is a zero refund")
	require.Equal(t, Refund{}, st.Refunds[0])
	require.Equal(t, Amount("1.50"), st.Refunds[1].Amount)
	require.Equal(t, Refund{}, st.Refunds[2])
	require.Equal(t, PaymentLinks{}, st.PaymentLinks)
	require.Zero(t, st.Card, "a redacted card is no card")
	require.Zero(t, st.UPI)
	require.EqualValues(t, 23, st.GatewayID, "a number sent as text reads")
	require.True(t, st.DateCreated.IsZero())
	require.Equal(t, time.Date(2016, 8, 2, 8, 7, 52, 0, time.UTC), st.LastUpdated.UTC())
	require.True(t, bool(st.Mandate.RevokableByCustomer), "the mandate's booleans come as text too")
	require.Equal(t, Amount("5000.00"), st.Mandate.MaxAmount)
	require.Equal(t, TextMap{"payment_page_client_id": "shop", "payment_links": `{"web":"x"}`}, st.Metadata,
		"an object value as its JSON text")
	require.Equal(t, body, string(st.Raw))

	_, err = decodeReply[OrderStatus]([]byte(`{"order_id":`))
	require.Error(t, err)
}

// No reply, however malformed, makes the decoders panic; a decoded session's
// payload is always a verbatim slice of the body and a decoded status keeps
// the body whole.
func FuzzDecodeReplies(f *testing.F) {
	f.Add([]byte(`{"status":"NEW","sdk_payload":{"a":"\u00e9"},"payment_links":"FILTERED"}`))
	f.Add([]byte(`{"order_id":1,"amount":"9000","refunds":[null,"x",{"amount":1e2}],"status_id":"21"}`))
	f.Add([]byte(`{"links":{"payment_collection_links":{"QR":5,"INTENT":null}},"juspay":"FILTERED"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"txn_detail":{"txn_amount_breakup":"[{\"value\":\"1\"}]"},"mandate":{"revokable_by_customer":"true"},"JWT":1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if s, err := decodeReply[Session](body); err == nil {
			if !bytes.Contains(body, s.SDKPayload) || len(s.SDKPayload) == 0 {
				t.Fatalf("payload %q is not a slice of the body", s.SDKPayload)
			}
		}
		if st, err := decodeReply[OrderStatus](body); err == nil && !bytes.Equal(st.Raw, body) {
			t.Fatal("Raw differs from the body")
		}
		_, _ = decodeReply[Order](body)
		if r, err := decodeReply[Refund](body); err == nil && !bytes.Equal(r.Raw, body) {
			t.Fatal("Raw differs from the body")
		}
		var x Transaction
		_ = json.Unmarshal(body, &x)
		var m MandateDetail
		_ = json.Unmarshal(body, &m)
	})
}

// The order of an order webhook decodes into the OrderStatus GetOrder
// returns, with the same methods.
func TestOrderWebhookContentIsOrderStatus(t *testing.T) {
	for _, s := range conformance.Files(t, "webhooks", "webhook_order_*.json") {
		t.Run(s.Name, func(t *testing.T) {
			m := genericJSON(t, s.Data)
			order := m["content"].(map[string]any)["order"].(map[string]any)
			b, err := json.Marshal(order)
			require.NoError(t, err)
			var st OrderStatus
			require.NoError(t, json.Unmarshal(b, &st))
			require.Equal(t, order["order_id"], st.OrderID)
			require.Equal(t, order["status"], string(st.Status))
			require.True(t, st.Status.Known())
			require.EqualValues(t, st.Status.ID(), st.StatusID, "the status and its number agree")
			require.Equal(t, m["event_name"] != "ORDER_FAILED", st.IsPaid(), "a refunded or refund-failed order stays CHARGED")
			require.True(t, st.IsFinal())
		})
	}
}

// A successful reply that is not an order status is an error naming what
// is wrong, never an empty value: the published /v4 reply in Basic mode,
// other JSON values, objects without order_id, id or status.
func TestGetOrderRefusesOtherShapes(t *testing.T) {
	jwt := conformance.Files(t, "orders", "order_status_v4_jwt_response.json")[0]
	for _, tt := range []struct {
		name, body, msg string
	}{
		{"empty object", `{}`, "the reply is not an order status: it has none of order_id, id, status"},
		{"another order", `{"order_id":"o2","status":"CHARGED","amount":"1.00"}`, `the reply is about another order than "o1"`},
		{"other object", `{"amount":1,"currency":"INR"}`, "none of order_id, id, status"},
		{"nulls", `{"order_id":null,"id":null,"status":null}`, "none of order_id, id, status"},
		{"array", `[{"order_id":"o"}]`, "the reply is a JSON array, not a JSON object"},
		{"string", `"CHARGED"`, "the reply is a JSON string, not a JSON object"},
		{"null", `null`, "the reply is null, not a JSON object"},
		{"empty", ``, "the reply is empty, not a JSON object"},
		{"html", `<html>busy</html>`, "the reply is text that is not JSON, not a JSON object"},
		{"form feed", "\f{\"order_id\":\"o1\"}", "the reply is text that is not JSON, not a JSON object"},
		{"truncated", `{"order_id":"o"`, "decode response"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := replyingClient(t, tt.body)
			st, err := c.GetOrder(context.Background(), "o1")
			require.Nil(t, st)
			require.ErrorContains(t, err, tt.msg)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: get order: decode response: "), err.Error())
			var ae *APIError
			require.False(t, errors.As(err, &ae), "a 2xx reply is no API error")
			require.EqualValues(t, 1, srv.count.Load())
		})
	}
	srv := newRecorder(t, reply{status: 200, body: `{"order_id":"o1"}`})
	_, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
	require.NoError(t, err)
	// A reply that names no order is refused as one about another order is:
	// it is no proof of being this order's.
	for _, body := range []string{`{"id":"ordeh_1"}`, `{"status":"CHARGED"}`, `{"order_id":"","status":"CHARGED"}`} {
		srv := newRecorder(t, reply{status: 200, body: body})
		_, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
		require.EqualError(t, err, `checkout: get order: decode response: the reply names no order, where it must name "o1"`, body)
	}
	// An encrypted envelope is refused by the request path before decoding,
	// with the error that says which option reads it.
	for name, body := range map[string]string{
		"published v4 reply": string(jwt.Data),
		"JWE JSON envelope":  `{"header":"h","encryptedKey":"k","iv":"i","encryptedPayload":"p","tag":"t"}`,
	} {
		srv := newRecorder(t, reply{status: 200, body: body})
		st, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
		require.Nil(t, st, name)
		require.ErrorIs(t, err, ErrEnvelope, name)
		require.ErrorContains(t, err, "checkout: get order: reply: the reply is encrypted", name)
		require.Equal(t, 1, strings.Count(err.Error(), "checkout: "), "the call named once: %s", err)
	}
}

// Every call that names an order refuses a reply about another order (a
// misrouting proxy or cache): Refund, UpdateOrder and RefundTransaction by
// order, as GetOrder does. CheckPaid would otherwise approve the wrong one.
func TestRepliesAboutAnotherOrderAreRefused(t *testing.T) {
	other := `{"order_id":"o2","id":"ordeh_2","status":"CHARGED","amount":"1.00","refunds":[]}`
	c, _ := replyingClient(t, other)
	ctx := context.Background()
	_, err := c.Refund(ctx, "o1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
	require.ErrorContains(t, err, `checkout: refund: POST /orders/o1/refunds: decode response: the reply is about another order than "o1"`)
	_, err = c.UpdateOrder(ctx, "o1", &UpdateOrderRequest{Amount: "2.00"})
	require.ErrorContains(t, err, `checkout: update order: POST /orders/o1: decode response: the reply is about another order than "o1"`)

	c, _ = replyingClient(t, `{"id":"rf_1","unique_request_id":"r1","order_id":"o2","status":"PENDING"}`)
	_, err = c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r1", OrderID: "o1", Amount: "1.00"})
	require.ErrorContains(t, err, `checkout: refund transaction: POST /refunds: decode response: the reply is about another order than "o1"`)
	_, err = c.RefundTransaction(ctx, &TransactionRefundRequest{UniqueRequestID: "r1", TxnID: "t1", Amount: "1.00"})
	require.NoError(t, err, "a refund by transaction names no order to compare")

	c, _ = replyingClient(t, `{"order_id":"o1","status":"CHARGED","refunds":[]}`)
	_, err = c.Refund(ctx, "o1", &RefundRequest{UniqueRequestID: "r1"})
	require.NoError(t, err)
}

// A block added to OrderStatus the way the package declares its blocks (a
// value field tagged omitzero, and nothing else: no decoder, no list of
// keys elsewhere) reads "FILTERED" as zero, as every block does, and its
// object as its fields. The test builds that copy of OrderStatus with
// reflect and decodes it as OrderStatus.UnmarshalJSON decodes itself.
func TestAddedBlockRedactedIsZero(t *testing.T) {
	type block struct {
		Code string `json:"code,omitempty"`
		N    Int    `json:"n,omitempty"`
	}
	orderStatus := reflect.TypeFor[OrderStatus]()
	fields := make([]reflect.StructField, 0, orderStatus.NumField()+1)
	for i := range orderStatus.NumField() {
		f := orderStatus.Field(i)
		fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag, Anonymous: f.Anonymous})
	}
	fields = append(fields, reflect.StructField{Name: "Added", Type: reflect.TypeFor[block](), Tag: `json:"added,omitzero"`})
	withAdded := reflect.StructOf(fields)

	decode := func(body string) reflect.Value {
		v := reflect.New(withAdded)
		ok, err := readObject([]byte(body), v.Interface(), "order status")
		require.True(t, ok)
		require.NoError(t, err)
		return v.Elem()
	}
	v := decode(`{"order_id":"o1","added":"FILTERED","card":"FILTERED","mandate":{"mandate_id":"m","payment_info":"FILTERED"}}`)
	require.Equal(t, "o1", v.FieldByName("OrderID").String())
	require.True(t, v.FieldByName("Added").IsZero(), "a redacted added block is zero")
	require.True(t, v.FieldByName("Card").IsZero(), "a redacted card is zero")
	require.Equal(t, MandateDetail{MandateID: "m"}, v.FieldByName("Mandate").Interface(), "at every level")

	v = decode(`{"order_id":"o1","added":{"code":"C","n":"7"}}`)
	require.Equal(t, block{Code: "C", N: 7}, v.FieldByName("Added").Interface())
	out, err := json.Marshal(decode(`{"order_id":"o1","added":null}`).Interface())
	require.NoError(t, err)
	require.Equal(t, `{"order_id":"o1","refunded":false}`, string(out), "a zero block is not encoded")
}

// Every block of a reply, at every level, is a value tagged omitzero: a
// pointer block would read "FILTERED" as a non-nil empty block, which is
// what the declared form rules out.
func TestReplyBlocksAreValues(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(where string, t reflect.Type)
	walk = func(where string, typ reflect.Type) {
		for typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ == timestampType {
			return
		}
		seen[typ] = true
		for _, f := range reflect.VisibleFields(typ) {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" || (f.Anonymous && name == "") {
				continue
			}
			path := where + "." + f.Name
			require.NotEqual(t, reflect.Pointer, f.Type.Kind(), "%s: a block is a value tagged omitzero, not a pointer", path)
			if f.Type.Kind() == reflect.Struct && f.Type != timestampType {
				require.Contains(t, strings.Split(opts, ","), "omitzero", "%s: a block is tagged omitzero", path)
			}
			walk(path, f.Type)
		}
	}
	for _, v := range []any{OrderStatus{}, Order{}, Session{}, Refund{}, Customer{}, Transaction{}, MandateDetail{}, Notification{}, APIError{}} {
		walk(reflect.TypeOf(v).Name(), reflect.TypeOf(v))
	}
	require.True(t, seen[reflect.TypeFor[CardToken]()], "the walk reaches nested blocks")
}

// ValidateOrderID refuses the ids GetOrder refuses, with a
// *ValidationError naming order_id, and GetOrder refuses them alike.
func TestValidateOrderID(t *testing.T) {
	for _, id := range []string{"ord_1", "a b", "ஆ", "ord/1"} {
		require.NoError(t, ValidateOrderID(id), id)
	}
	c, err := NewClient("m", "k", WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	for _, id := range []string{"", " \t", ".", ".."} {
		err := ValidateOrderID(id)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, "%q", id)
		require.Equal(t, keyOrderID, ve.Problems[0].Path)
		require.ErrorIs(t, err, ErrInvalidRequest)
		_, gerr := c.GetOrder(context.Background(), id)
		require.ErrorAs(t, gerr, &ve, "GetOrder refuses %q too", id)
		require.Equal(t, keyOrderID, ve.Problems[0].Path)
	}
}
