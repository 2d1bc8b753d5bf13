package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/tags"
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
		{StatusPartialCharged, 0, false},
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

// untypedKeys are the keys of the published bodies no field types: their
// shape is never shown unredacted or differs between gateways. Raw keeps
// them.
var untypedKeys = map[string]bool{
	"OrderStatus.bank_pg":         true, // always null
	"OrderStatus.rewards_breakup": true, // null or FILTERED
	"OrderStatus.emi_details":     true, // FILTERED
	"OrderStatus.additional_info": true, // {}
	"Refund.previous_attempts":    true, // FILTERED
	"MandateDetail.payment_info":  true, // differs by payment method
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	amountBreakupType = reflect.TypeFor[AmountBreakup]()
	amountType        = reflect.TypeFor[Amount]()
)

// requireTyped walks a generic decoding of a published body beside its
// typed value: every key has a field (or is listed in untypedKeys), every
// object and array of the body is typed as one, and every value that is
// set and not redacted is set in its field too, equal where it is text.
func requireTyped(t *testing.T, where string, v reflect.Value, raw any) {
	t.Helper()
	if raw == nil {
		return
	}
	if s, ok := raw.(string); ok && (s == "" || s == "FILTERED") {
		return
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			t.Errorf("%s: %v was not decoded", where, raw)
			return
		}
		v = v.Elem()
	}
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		want, err := json.Marshal(raw)
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(v.Bytes()), where)
		return
	}
	switch x := raw.(type) {
	case map[string]any:
		if v.Kind() == reflect.Map {
			for k, val := range x {
				if s, ok := val.(string); ok {
					require.Equal(t, s, v.MapIndex(reflect.ValueOf(k)).String(), "%s.%s", where, k)
				}
			}
			return
		}
		require.Equal(t, reflect.Struct, v.Kind(), where)
		fields := map[string]tags.Field{}
		for _, f := range tags.Fields(v.Type(), "json") {
			fields[f.Key] = f
		}
		for k, val := range x {
			f, ok := fields[k]
			if !ok {
				if !untypedKeys[v.Type().Name()+"."+k] && !isUDFOrAlias(v.Type(), k) {
					t.Errorf("%s.%s: no field of %s types it", where, k, v.Type().Name())
				}
				continue
			}
			requireTyped(t, where+"."+k, v.FieldByIndex(f.Index), val)
		}
	case []any:
		require.Equal(t, reflect.Slice, v.Kind(), where)
		require.Equal(t, len(x), v.Len(), where)
		for i := range x {
			requireTyped(t, where+"["+strconv.Itoa(i)+"]", v.Index(i), x[i])
		}
	case string:
		switch {
		case v.Type() == timeType:
			if want, err := time.Parse(time.RFC3339, x); err == nil {
				require.True(t, want.Equal(v.Interface().(time.Time)), "%s: %s", where, x)
			}
		case v.Type() == amountBreakupType:
			var lines []any
			require.NoError(t, json.Unmarshal([]byte(x), &lines), where)
			requireTyped(t, where, v, lines)
		case v.Type() == amountType:
			decimalEqual(t, json.Number(x), v.Interface().(Amount))
		case v.Kind() == reflect.String:
			require.Equal(t, x, v.String(), where)
		default:
			require.False(t, v.IsZero(), "%s: %q", where, x)
		}
	case json.Number:
		if v.Type() == amountType {
			decimalEqual(t, x, v.Interface().(Amount))
		} else if x != "0" {
			require.False(t, v.IsZero(), "%s: %s", where, x)
		}
	case bool:
		require.Equal(t, x, v.Bool(), where)
	}
}

// isUDFOrAlias reports the keys read by hand beside the tags: the older
// arn of a refund and value of a breakup line.
func isUDFOrAlias(t reflect.Type, key string) bool {
	return t.Name() == "Refund" && key == "arn" || t.Name() == "BreakupLine" && key == "value"
}

// genericJSON decodes a body with numbers kept as text.
func genericJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

// Every published order status, refund-order reply and order inside a
// webhook decodes into OrderStatus with every key typed (or listed as
// untyped) and every value in its field.
func TestOrderStatusSamplesFullyTyped(t *testing.T) {
	var bodies []conformance.Sample
	bodies = append(bodies, conformance.Files(t, "orders", "order_status_*.json")...)
	bodies = append(bodies, conformance.Files(t, "orders", "order_update_response.json")...)
	bodies = append(bodies, conformance.Files(t, "refunds", "refund_order_response.json")...)
	orders := 0
	for _, s := range bodies {
		if !s.ValidJSON() || isSealed(s.Data) {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			st, err := decodeReply[OrderStatus](s.Data)
			require.NoError(t, err)
			requireTyped(t, "order", reflect.ValueOf(st).Elem(), genericJSON(t, s.Data))
			orders++
		})
	}
	for _, s := range conformance.Files(t, "webhooks", "*") {
		if !s.ValidJSON() {
			continue
		}
		m := genericJSON(t, s.Data)
		content, _ := m["content"].(map[string]any)
		for kind, target := range map[string]any{"order": &OrderStatus{}, "txn": &Transaction{}, "mandate": &MandateDetail{}} {
			raw, ok := content[kind]
			if !ok {
				continue
			}
			t.Run(s.Name+"/"+kind, func(t *testing.T) {
				b, err := json.Marshal(raw)
				require.NoError(t, err)
				require.NoError(t, json.Unmarshal(b, target))
				requireTyped(t, kind, reflect.ValueOf(target).Elem(), raw)
				if kind == "order" {
					orders++
				}
			})
		}
	}
	require.GreaterOrEqual(t, orders, 15)
}

// Named fields of the published samples, read as a merchant reads them.
func TestOrderStatusSampleFields(t *testing.T) {
	order := func(t *testing.T, dir, name string) *OrderStatus {
		t.Helper()
		s := conformance.Files(t, dir, name)[0]
		var st OrderStatus
		if dir == "webhooks" {
			var ev struct {
				Content struct {
					Order json.RawMessage `json:"order"`
				} `json:"content"`
			}
			require.NoError(t, json.Unmarshal(s.Data, &ev))
			require.NoError(t, json.Unmarshal(ev.Content.Order, &st))
			return &st
		}
		got, err := decodeReply[OrderStatus](s.Data)
		require.NoError(t, err)
		return got
	}
	t.Run("card, refunded in part (refund_order_response)", func(t *testing.T) {
		st := order(t, "refunds", "refund_order_response.json")
		require.Equal(t, StatusCharged, st.Status)
		require.True(t, st.IsPaid())
		require.NoError(t, st.CheckPaid("1.00"))
		require.NoError(t, st.CheckPaid("1"))
		require.Equal(t, "VISA", st.Card.Brand)
		require.Equal(t, "CREDIT", st.Card.Type)
		require.Equal(t, "411111", st.Card.ISIN)
		require.Equal(t, "JP Morgan", st.Card.Issuer)
		require.True(t, st.Card.UsingSavedCard)
		require.False(t, st.Card.SavedToLocker)
		require.Equal(t, "RAZORPAY", st.TxnDetail.Gateway)
		require.Equal(t, 23, st.TxnDetail.GatewayID)
		require.Equal(t, StatusCharged, st.TxnDetail.Status)
		require.True(t, st.TxnDetail.ExpressCheckout)
		require.Equal(t, "pay_IJZKtTpkiYWE24", st.PaymentGatewayResponse.EPGTxnID)
		require.Equal(t, "156555", st.PaymentGatewayResponse.RRN)
		require.Equal(t, "SUCCESS", st.PaymentGatewayResponse.RespCode)
		require.Equal(t, "testmid", st.Metadata["RAZORPAY:gateway_reference_id"])
		require.Len(t, st.Refunds, 1)
		r := st.Refunds[0]
		require.Equal(t, RefundPending, r.Status)
		require.Equal(t, RefundStandard, r.RefundType)
		require.Equal(t, "RAZORPAY", r.RefundSource)
		require.False(t, r.SentToGateway)
		require.Empty(t, r.ID)
		require.Equal(t, "TEST1637681731", r.UniqueRequestID)
	})
	t.Run("net banking with a breakup in text (nb)", func(t *testing.T) {
		st := order(t, "orders", "order_status_response_nb.json")
		require.Equal(t, "NB_HDFC", st.PaymentMethod)
		require.Equal(t, "THREE_DS", st.AuthType)
		require.Nil(t, st.Card)
		b := st.TxnDetail.AmountBreakup
		require.Len(t, b, 3)
		require.Equal(t, BreakupLine{Name: "BASE", Amount: b[0].Amount, Method: "ADD", SNo: 1}, b[0])
		decimalEqual(t, "9000", b[0].Amount) // the text form names it value
		decimalEqual(t, "200", b[2].Amount)
		require.Equal(t, "SampleAddOnAmount2", b[2].Description)
		decimalEqual(t, "500", st.TxnDetail.OfferDeductionAmount)
		require.Error(t, st.CheckPaid("9700"), "the order amount, not the effective amount, is checked")
		require.NoError(t, st.CheckPaid("9000"))
	})
	t.Run("cash on delivery (cod)", func(t *testing.T) {
		st := order(t, "orders", "order_status_response_cod.json")
		require.Equal(t, StatusCODInitiated, st.Status)
		require.Equal(t, 29, st.StatusID)
		require.False(t, st.IsPaid())
		require.False(t, st.IsFinal())
		require.ErrorIs(t, st.CheckPaid("100"), ErrNotPaid)
		decimalEqual(t, "150", st.TxnDetail.SurchargeAmount)
		decimalEqual(t, "250", st.TxnDetail.TxnAmount)
		require.Equal(t, "CASH_PAY", st.TxnDetail.TxnFlowType)
		require.Equal(t, "defaultclient", st.Metadata["payment_page_client_id"])
		require.NotContains(t, st.Metadata, "payment_links", "an object is no text: it stays in Raw")
		require.Equal(t, "COD initiated successfully", st.BankErrorMessage)
	})
	t.Run("wallet with an older refund (wallet)", func(t *testing.T) {
		st := order(t, "orders", "order_status_response_wallet.json")
		require.Equal(t, "GOOGLEPAY", st.PaymentMethod)
		require.Equal(t, "PAYTM_V2", st.TxnDetail.Gateway)
		require.Equal(t, "0149717932", st.Refunds[0].ARN, "arn is read as refund_arn")
		require.Equal(t, RefundSuccess, st.Refunds[0].Status)
		require.Equal(t, "null", st.PayerVPA, "text is kept as sent")
	})
	t.Run("webhook: order succeeded, card redacted", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_order_succeeded.json")
		require.True(t, st.IsPaid())
		require.Nil(t, st.Card, `"card": "FILTERED"`)
		require.Equal(t, "FILTERED", st.CustomerEmail, "redacted text stays as sent")
		require.True(t, st.DateCreated.IsZero(), "1111111T07:00:40Z is no time")
		require.JSONEq(t, `{"authCode":"ybbjy9","resMessage":"FILTERED","mandateToken":"FILTERED","resCode":"200"}`,
			string(st.PaymentGatewayResponse.Full))
		require.Equal(t, "WEB", st.TxnDetail.Metadata["payment_channel"])
	})
	t.Run("webhook: refund in manual review, wallet and risk", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_auto_refunded_ec_headless.json")
		require.Equal(t, RefundManualReview, st.Refunds[0].Status)
		require.Equal(t, "AUTO_REFUNDED", st.Refunds[0].InitiatedBy)
		require.Equal(t, "REDIRECT", st.Wallet.TxnFlowType)
		require.Equal(t, "JUSPAYFRM", st.Risk.Provider)
		require.False(t, st.Risk.Flagged)
	})
	t.Run("webhook: failed global order, breakup as array", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_order_failed_global.json")
		require.Equal(t, StatusAuthenticationFailed, st.Status)
		require.True(t, st.IsFinal())
		require.False(t, st.IsPaid())
		require.Equal(t, "TECHNICAL_ERROR", st.RespCategory)
		require.Equal(t, "TECHNICAL_ERROR", st.TxnDetail.ResponseCode)
		require.Equal(t, "JPY", st.TxnDetail.Currency)
		b := st.TxnDetail.AmountBreakup
		require.Len(t, b, 1)
		require.Equal(t, BreakupLine{Name: "BASE", Amount: b[0].Amount, Method: "ADD"}, b[0], `"sno": "FILTERED" is left zero`)
		decimalEqual(t, "9150", b[0].Amount)
		require.Equal(t, "REDIRECT_DEBIT", st.Wallet.TxnFlowType)
		require.False(t, st.LastUpdated.IsZero())
	})
	t.Run("webhook: mandate registration", func(t *testing.T) {
		st := order(t, "webhooks", "webhook_order_succeeded_mandate.json")
		m := st.Mandate
		require.Equal(t, "3XMEcS1z2212Gq7fbfVYbzj", m.MandateID)
		require.Equal(t, "ACTIVE", m.MandateStatus)
		require.Equal(t, "MONTHLY", m.Frequency)
		require.Equal(t, "1598745600", m.StartDate)
		require.Equal(t, 30, m.RuleValue)
		require.True(t, m.RevokableByCustomer)
		decimalEqual(t, "1000", m.MaxAmount)
		require.Equal(t, "EMANDATE_REGISTER", st.TxnDetail.TxnObjectType)
		require.Equal(t, "MANDATE", st.TxnDetail.SourceObject)
		require.Equal(t, "upimandate", st.Metadata["PAYTM_V2:gateway_reference_id"])
	})
	t.Run("webhook: transaction failed", func(t *testing.T) {
		s := conformance.Files(t, "webhooks", "webhook_txn_failed.json")[0]
		var ev struct {
			Content struct {
				Txn Transaction `json:"txn"`
			} `json:"content"`
		}
		require.NoError(t, json.Unmarshal(s.Data, &ev))
		txn := ev.Content.Txn
		require.Equal(t, StatusAuthorizationFailed, txn.Status)
		require.Equal(t, 27, txn.StatusID)
		require.Equal(t, "03", txn.ErrorCode)
		require.Equal(t, "Not sufficient funds", txn.ErrorMessage)
		require.Equal(t, "CARD", txn.PaymentMethodType)
		require.Nil(t, txn.Card)
		require.NotNil(t, txn.PaymentGatewayResponse)
		require.Empty(t, txn.PaymentGatewayResponse.EPGTxnID)
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
			require.Equal(t, st.Status.ID(), st.StatusID, "the status and its number agree")
			require.Equal(t, m["event_name"] != "ORDER_FAILED", st.IsPaid(), "a refunded or refund-failed order stays CHARGED")
			require.True(t, st.IsFinal())
			require.Equal(t, string(b), string(st.Raw))
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
		{"another order", `{"order_id":"o2","status":"CHARGED","amount":"1.00"}`, `the reply is about order "o2", not "o1"`},
		{"other object", `{"amount":1,"currency":"INR"}`, "none of order_id, id, status"},
		{"nulls", `{"order_id":null,"id":null,"status":null}`, "none of order_id, id, status"},
		{"array", `[{"order_id":"o"}]`, "the reply is a JSON array, not a JSON object"},
		{"string", `"CHARGED"`, "the reply is a JSON string, not a JSON object"},
		{"null", `null`, "the reply is null, not a JSON object"},
		{"empty", ``, "the reply is empty, not a JSON object"},
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
	for _, body := range []string{`{"order_id":"o1"}`, `{"id":"ordeh_1"}`, `{"status":"NEW"}`} {
		srv := newRecorder(t, reply{status: 200, body: body})
		_, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
		require.NoError(t, err, body)
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
	}
}

// The same rule holds for every reply type, named in plain words.
func TestDecodeReplyNamesTheType(t *testing.T) {
	_, err := decodeReply[Refund]([]byte(`{"amount":1}`))
	require.ErrorContains(t, err, "the reply is not a refund: it has none of id, unique_request_id, status")
	_, err = decodeReply[Order]([]byte(`{"unknown":1}`))
	require.ErrorContains(t, err, "the reply is not an order: it has none of status, status_id, id, order_id, payment_links")
	_, err = decodeReply[Session]([]byte(`{"JWT":"x"}`))
	require.ErrorContains(t, err, "no sdk_payload object")
	require.Equal(t, "order status", typeWords("OrderStatus"))
	require.Equal(t, "an", article("order"))
}
