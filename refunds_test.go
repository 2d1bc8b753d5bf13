package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/payorch/checkout-go/internal/conformance"
)

// The published replies of POST /refunds decode into Refund with every key
// typed and the fields a merchant reads set.
func TestRefundSamples(t *testing.T) {
	for _, tt := range []struct {
		file       string
		txnID      string
		orderID    string
		refundType RefundType
		source     string
		gateway    string
		sent       bool
	}{
		{"refund_by_txn_id_response.json", "merchant_success-JP1636706983-2", "JP1636706983", RefundStandard, "RAZORPAY", "RAZORPAY", false},
		{"refund_instant_response.json", "merchantid-ord_123-1", "ord_123", RefundInstant, "YESBANK_VISADIRECT", "MORPHEUS", true},
	} {
		t.Run(tt.file, func(t *testing.T) {
			s := conformance.Files(t, "refunds", tt.file)[0]
			r, err := decodeReply[Refund](s.Data)
			require.NoError(t, err)
			requireTyped(t, "refund", reflect.ValueOf(r).Elem(), genericJSON(t, s.Data))
			require.Equal(t, tt.txnID, r.TxnID)
			require.Equal(t, tt.orderID, r.OrderID)
			require.Equal(t, RefundPending, r.Status)
			require.Equal(t, tt.refundType, r.RefundType)
			require.Equal(t, tt.source, r.RefundSource)
			require.Equal(t, tt.gateway, r.Gateway)
			require.EqualValues(t, tt.sent, r.SentToGateway)
			require.Equal(t, "API", r.InitiatedBy)
			decimalEqual(t, "1", r.Amount)
			require.False(t, r.Created.IsZero())
			require.Empty(t, r.ARN, "null is empty")
			require.Empty(t, r.EPGTxnID)
			require.Equal(t, string(s.Data), string(r.Raw))
		})
	}
}

// Every refund inside a published order or webhook decodes, including the
// statuses only webhooks show (FAILURE, MANUAL_REVIEW) and the gateway's
// metadata.
func TestRefundStatusesInSamples(t *testing.T) {
	seen := map[RefundStatus]bool{}
	for _, s := range conformance.Files(t, "webhooks", "*.json") {
		if !s.ValidJSON() {
			continue
		}
		m := genericJSON(t, s.Data)
		order, _ := m["content"].(map[string]any)["order"].(map[string]any)
		if order == nil || order["refunds"] == nil {
			continue
		}
		var st OrderStatus
		require.NoError(t, st.UnmarshalJSON(mustJSON(t, order)), s.Name)
		for i, r := range st.Refunds {
			raw := order["refunds"].([]any)[i].(map[string]any)
			require.Equal(t, raw["unique_request_id"], r.UniqueRequestID, s.Name)
			require.Equal(t, raw["status"], string(r.Status), s.Name)
			seen[r.Status] = true
			if md, ok := raw["metadata"].(map[string]any); ok {
				require.Equal(t, md["speed_processed"], r.Metadata["speed_processed"], s.Name)
			}
		}
	}
	for _, want := range []RefundStatus{RefundPending, RefundSuccess, RefundFailure, RefundManualReview} {
		require.True(t, seen[want], "no published refund is %s", want)
	}
}

// A refund keeps what the service sent in Raw and encodes its typed
// fields.
func TestRefundJSON(t *testing.T) {
	s := conformance.Files(t, "refunds", "refund_instant_response.json")[0]
	r, err := decodeReply[Refund](s.Data)
	require.NoError(t, err)
	require.Equal(t, string(s.Data), string(r.Raw))
	r.Amount = "1.00"
	out, err := json.Marshal(r)
	require.NoError(t, err)
	require.JSONEq(t, `{"unique_request_id":"paytmv2_12231723_50","txn_id":"merchantid-ord_123-1","order_id":"ord_123",
		"status":"PENDING","amount":"1.00","created":"2019-03-14T14:40:23Z","sent_to_gateway":true,"refund_type":"INSTANT",
		"refund_source":"YESBANK_VISADIRECT","gateway":"MORPHEUS","initiated_by":"API"}`, string(out))
}

// A refund without an amount refunds the whole order: the form carries no
// amount key.
func TestRefundWholeOrder(t *testing.T) {
	body := conformance.Files(t, "refunds", "refund_order_response.json")[0].Data
	c, srv := replyingClient(t, string(body))
	st, err := c.Refund(context.Background(), "JP1636474794", &RefundRequest{UniqueRequestID: "TEST1637681731"})
	require.NoError(t, err)
	require.Equal(t, "unique_request_id=TEST1637681731", string(srv.last(t).Body))
	require.Equal(t, "TEST1637681731", st.Refunds[0].UniqueRequestID)
	require.True(t, bool(st.Refunded))
}

// Wire contract of RefundTransaction: POST /refunds, a form with exactly
// the keys set, the client's headers; the reply is one Refund.
func TestRefundTransactionWireGock(t *testing.T) {
	byTxn := conformance.Files(t, "refunds", "refund_by_txn_id_response.json")[0].Data
	instant := conformance.Files(t, "refunds", "refund_instant_response.json")[0].Data
	for _, tt := range []struct {
		name  string
		req   *TransactionRefundRequest
		form  string
		reply []byte
		want  func(t *testing.T, r *Refund)
	}{
		{"by transaction", &TransactionRefundRequest{UniqueRequestID: "refund_122_3472", TxnID: "merchant_success-JP1636706983-2", Amount: "1.00"},
			"amount=1.00&txn_id=merchant_success-JP1636706983-2&unique_request_id=refund_122_3472", byTxn,
			func(t *testing.T, r *Refund) { require.Equal(t, "merchant_success-JP1636706983-2", r.TxnID) }},
		{"instant by order", &TransactionRefundRequest{UniqueRequestID: "rfd_1234", OrderID: "ord_123", Amount: "98.20", RefundType: RefundInstant},
			"amount=98.20&order_id=ord_123&refund_type=INSTANT&unique_request_id=rfd_1234", instant,
			func(t *testing.T, r *Refund) { require.Equal(t, RefundInstant, r.RefundType) }},
		{"instant with fallback", &TransactionRefundRequest{UniqueRequestID: "rfd_1235", OrderID: "ord/1", Amount: "1.00", RefundType: RefundInstantWithFallback},
			"amount=1.00&order_id=ord%2F1&refund_type=INSTANT_WITH_FALLBACK&unique_request_id=rfd_1235",
			bytes.ReplaceAll(instant, []byte(`"ord_123"`), []byte(`"ord/1"`)), nil},
		{"a type the SDK does not know is sent as given", &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", RefundType: "GATEWAY"},
			"refund_type=GATEWAY&txn_id=t&unique_request_id=r", byTxn, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newGockClient(t, gockBase)
			gock.New(gockBase).Post("^/refunds$").
				AddMatcher(exactHeaders(map[string]string{
					"Authorization": testAuth, "X-Merchantid": testMerchant, "Accept": "application/json",
					"User-Agent": "checkout-go/" + SDKVersion, "Content-Type": "application/x-www-form-urlencoded",
					"Version": DefaultAPIVersion,
				})).
				BodyString("^" + regexpQuote(tt.form) + "$").
				Reply(200).BodyString(string(tt.reply))
			r, err := c.RefundTransaction(context.Background(), tt.req)
			require.NoError(t, err)
			require.Equal(t, RefundPending, r.Status)
			require.Equal(t, string(tt.reply), string(r.Raw))
			if tt.want != nil {
				tt.want(t, r)
			}
		})
	}
}

func TestTransactionRefundValidate(t *testing.T) {
	for _, tt := range []struct {
		name  string
		req   *TransactionRefundRequest
		paths []string
	}{
		{"by transaction", &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", Amount: "1.00"}, nil},
		{"by order, no amount", &TransactionRefundRequest{UniqueRequestID: "r", OrderID: "o", RefundType: RefundInstant}, nil},
		{"both named", &TransactionRefundRequest{UniqueRequestID: "r", OrderID: "o", TxnID: "t"}, nil},
		{"nothing named", &TransactionRefundRequest{UniqueRequestID: "r", Amount: "1.00"}, []string{"txn_id"}},
		{"empty", &TransactionRefundRequest{}, []string{"unique_request_id", "txn_id"}},
		{"blank id", &TransactionRefundRequest{UniqueRequestID: "  ", TxnID: "t"}, []string{"unique_request_id"}},
		{"zero amount", &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", Amount: "0.00"}, []string{"amount"}},
		{"negative amount", &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", Amount: "-1.00"}, []string{"amount"}},
		{"not a number", &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", Amount: "ten"}, []string{"amount"}},
		{"bad UTF-8", &TransactionRefundRequest{UniqueRequestID: "r\xff", TxnID: "t"}, []string{"unique_request_id"}},
		{"nil", nil, []string{""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireProblemPaths(t, tt.req.Validate(), tt.paths)
		})
	}

	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	_, err := c.RefundTransaction(context.Background(), &TransactionRefundRequest{UniqueRequestID: "r"})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.ErrorIs(t, err, ErrInvalidRequest)
	require.True(t, strings.HasPrefix(err.Error(), "checkout: refund transaction: "), err.Error())
	require.Zero(t, srv.count.Load(), "nothing is sent")
}

// A refund by transaction is resent only where it cannot have taken
// effect: after 429 and 503 (the service did not act) and a refused
// connection (nothing was sent); never after 500, 502, 504, a timeout or a
// connection dropped after the request was written.
func TestRefundTransactionRetry(t *testing.T) {
	ok := reply{status: 200, body: `{"unique_request_id":"r","status":"PENDING","txn_id":"t"}`}
	req := &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t", Amount: "1.00"}
	for _, tt := range []struct {
		first    reply
		attempts int64
		err      error
	}{
		{reply{status: 500, body: `{"status":"ERROR"}`}, 1, ErrServer},
		{reply{status: 502}, 1, ErrServer},
		{reply{status: 504}, 1, ErrServer},
		{reply{status: 400, body: `{"status":"ERROR","error_code":"duplicate.call"}`}, 1, ErrInvalidRequest},
		{reply{status: 503, header: map[string]string{"Retry-After": "0"}}, 2, nil},
		{reply{status: 429, header: map[string]string{"Retry-After": "0"}}, 2, nil},
	} {
		srv := newRecorder(t, tt.first, ok)
		c := newTestClient(t, srv.URL)
		r, err := c.RefundTransaction(context.Background(), req)
		require.EqualValues(t, tt.attempts, srv.count.Load(), "after %d", tt.first.status)
		if tt.err != nil {
			require.ErrorIs(t, err, tt.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, "t", r.TxnID)
	}

	// Refused twice: nothing reached the service, so it is tried again.
	srv := newRecorder(t, ok)
	d := &refusingDialer{refuse: 2}
	c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.DialContext}}))
	_, err := c.RefundTransaction(context.Background(), req)
	require.NoError(t, err)
	require.EqualValues(t, 3, d.dials.Load())
	require.EqualValues(t, 1, srv.count.Load(), "refunded once")

	// Dropped after the request arrived: one attempt, and the error says
	// it may have been delivered.
	var count atomic.Int64
	drop := httptest.NewServer(hijackClose(&count))
	t.Cleanup(drop.Close)
	_, err = newTestClient(t, drop.URL).RefundTransaction(context.Background(), req)
	te := requireTransportError(t, err, "refund transaction", true)
	require.Equal(t, "/refunds", te.Path)
	require.EqualValues(t, 1, count.Load())

	// Timed out after sending: one attempt.
	slow := newRecorder(t, reply{status: 200, body: ok.body, delay: time.Second})
	hc := &http.Client{Timeout: 50 * time.Millisecond}
	_, err = newTestClient(t, slow.URL, WithHTTPClient(hc)).RefundTransaction(context.Background(), req)
	require.Error(t, err)
	require.EqualValues(t, 1, slow.count.Load())
}

// The reply of RefundTransaction must be a refund: an order status, an
// encrypted envelope or an empty object is an error.
func TestRefundTransactionRefusesOtherShapes(t *testing.T) {
	req := &TransactionRefundRequest{UniqueRequestID: "r", TxnID: "t"}
	for body, msg := range map[string]string{
		`{}`:                            "the reply is not a refund: it has none of id, unique_request_id, status",
		`{"order_id":"o","txn_id":"t"}`: "none of id, unique_request_id, status",
		`[]`:                            "not a JSON object",
	} {
		srv := newRecorder(t, reply{status: 200, body: body})
		_, err := newTestClient(t, srv.URL).RefundTransaction(context.Background(), req)
		require.ErrorContains(t, err, msg, body)
		// The service answered a write: it may have acted.
		require.True(t, strings.HasPrefix(err.Error(), "checkout: refund transaction: POST /refunds: decode response: "), err.Error())
		var te *TransportError
		require.ErrorAs(t, err, &te)
		require.True(t, te.MaybeDelivered)
	}
	srv := newRecorder(t, reply{status: 200, body: `{"JWT":"x.y.z.w.v"}`})
	_, err := newTestClient(t, srv.URL).RefundTransaction(context.Background(), req)
	require.ErrorIs(t, err, ErrEnvelope)
	require.ErrorContains(t, err, "configure the client with WithJWE")
}

// The refund calls' form keys come from the tags: a request with every
// field set sends exactly them.
func TestRefundFormKeys(t *testing.T) {
	v, err := query.Values(&TransactionRefundRequest{UniqueRequestID: "u", TxnID: "t", OrderID: "o", Amount: "1.00", RefundType: RefundStandard})
	require.NoError(t, err)
	require.Equal(t, url.Values{"unique_request_id": {"u"}, "txn_id": {"t"}, "order_id": {"o"}, "amount": {"1.00"}, "refund_type": {"STANDARD"}}, v)
	v, err = query.Values(&RefundRequest{UniqueRequestID: "u"})
	require.NoError(t, err)
	require.Equal(t, url.Values{"unique_request_id": {"u"}}, v)
}

// mustJSON encodes a generic value.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
