package checkout

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/testio"
)

// logRecord is the part of a debug record the tests compare.
type logRecord struct {
	host, method, path string
	status, attempt    int  // status 0: no response
	transportError     bool // an "error" attribute is present
}

// parseLog reads the JSON records of buf, checking that each is a debug
// record named "checkout: attempt" with an op and an elapsed time.
func parseLog(t *testing.T, out string) []logRecord {
	t.Helper()
	var got []logRecord
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		require.Equal(t, "DEBUG", m["level"], line)
		require.Equal(t, "checkout: attempt", m["msg"], line)
		require.NotEmpty(t, m["op"], line)
		require.Contains(t, m, "elapsed", line)
		status, _ := m["status"].(float64)
		attempt, _ := m["attempt"].(float64)
		_, hasErr := m["error"]
		got = append(got, logRecord{m["host"].(string), m["method"].(string), m["path"].(string), int(status), int(attempt), hasErr})
	}
	return got
}

// Every call — CreateSession, CreateOrder, GetOrder and Refund — logged at
// debug level through success, retries, API errors, a connection dropped
// after the request was sent, refused connections and a validation failure:
// there is one record per attempt naming method, host, path, status and
// attempt, and no record holds the API key, the Authorization value, another
// header's value, any part of a request body or of a response body.
func TestDebugLogNeverHoldsSecretsOrBodies(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		key := r.Method + " " + r.URL.Path
		hits[key]++
		n := hits[key]
		mu.Unlock()
		switch key {
		case "POST /session": // 503, then success
			if n == 1 {
				w.WriteHeader(503)
				w.Write([]byte(`{"status":"ERROR","error_message":"resp-marker-busy"}`))
				return
			}
			w.Write([]byte(`{"status":"NEW","order_id":"order_dummy_1","sdk_payload":{"requestId":"resp-marker-payload"}}`))
		case "POST /orders": // success, then a 500 that is not retried
			if n == 1 {
				w.Write([]byte(`{"status":"CREATED","order_id":"HD-1707740261","juspay":{"client_auth_token":"resp-marker-token"}}`))
				return
			}
			w.WriteHeader(500)
			w.Write([]byte(`{"status":"ERROR","error_message":"resp-marker-crash"}`))
		case "GET /orders/o": // 503, then success
			if n == 1 {
				w.WriteHeader(503)
				return
			}
			w.Write([]byte(`{"status":"CHARGED","order_id":"o","customer_email":"resp-marker@example.com"}`))
		case "GET /orders/gone":
			w.WriteHeader(400)
			w.Write([]byte(`{"status":"NOT_FOUND","error_message":"resp-marker-not-found"}`))
		case "POST /orders/o/refunds":
			w.WriteHeader(400)
			w.Write([]byte(`{"status":"ERROR","error_message":"resp-marker-refund-refused"}`))
		case "POST /orders/drop/refunds": // the request arrived; no reply
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
		default:
			w.WriteHeader(418)
		}
	}))
	t.Cleanup(srv.Close)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refusedHost := closed.Addr().String()
	require.NoError(t, closed.Close()) // nothing listens there now

	var buf testio.SyncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := []Option{WithLogger(logger), WithUserAgent("hdr-marker-agent/1.0")}
	c := newTestClient(t, srv.URL, opts...)
	refused := newTestClient(t, "http://"+refusedHost, opts...)
	ctx := context.Background()
	perCall := []RequestOption{WithHeader("X-Custom", "hdr-marker-custom"), WithRoutingID("hdr-marker-routing")}

	sess := baseSession()
	sess.CustomerEmail = "body-marker-email@example.com"
	sess.Description = "body-marker-description"
	sess.Extra = map[string]any{"udf1": "body-marker-udf"}
	order := fullOrder()
	order.Description = "body-marker-order"
	refund := &RefundRequest{UniqueRequestID: "body-marker-refund", Amount: "1.00"}

	_, err = c.CreateSession(ctx, sess, perCall...)
	require.NoError(t, err)
	_, err = c.CreateOrder(ctx, order, perCall...)
	require.NoError(t, err)
	_, err = c.CreateOrder(ctx, order, perCall...)
	require.ErrorIs(t, err, ErrServer)
	_, err = c.GetOrder(ctx, "o", perCall...)
	require.NoError(t, err)
	_, err = c.GetOrder(ctx, "gone", perCall...)
	require.ErrorIs(t, err, ErrNotFound)
	_, err = c.Refund(ctx, "o", refund, perCall...)
	require.ErrorIs(t, err, ErrInvalidRequest)
	_, err = c.Refund(ctx, "drop", refund, perCall...)
	require.Error(t, err)
	_, err = refused.CreateSession(ctx, sess, perCall...)
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	// Validation failures send and log nothing.
	bad := fullOrder()
	bad.Amount = "body-marker-bad-amount"
	_, err = c.CreateOrder(ctx, bad, perCall...)
	require.Error(t, err)
	_, err = c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "body-marker-bad-refund", Amount: "0.00"}, perCall...)
	require.Error(t, err)

	out := buf.String()
	forbidden := []string{
		testKey, testAuth, strings.TrimPrefix(testAuth, "Basic "), "Basic", "Authorization", testMerchant,
		"body-marker", "hdr-marker", "resp-marker", "sdk_payload", "asha@example.com", "Bengaluru",
		"unique_request_id", "order_dummy_1", "picasso", "checkout-go/",
	}
	for _, s := range forbidden {
		require.NotContains(t, out, s)
	}
	require.Equal(t, 1, strings.Count(out, "HD-1707740261"), "the order id only in the path of the replay's read")

	host := strings.TrimPrefix(srv.URL, "http://")
	require.Equal(t, []logRecord{
		{host, "POST", "/session", 503, 1, false},
		{host, "POST", "/session", 200, 2, false},
		{host, "POST", "/orders", 200, 1, false},
		{host, "POST", "/orders", 500, 1, false},              // not sent again blindly: it may have created the order
		{host, "GET", "/orders/HD-1707740261", 418, 1, false}, // the replay reads it (its id is in the path, as in every GetOrder)
		{host, "GET", "/orders/o", 503, 1, false},
		{host, "GET", "/orders/o", 200, 2, false},
		{host, "GET", "/orders/gone", 400, 1, false},
		{host, "POST", "/orders/o/refunds", 400, 1, false},
		{host, "POST", "/orders/drop/refunds", 0, 1, true}, // sent, then dropped: not retried
		{host, "GET", "/orders/drop", 418, 1, false},       // the replay reads the order (ConflictError)
		{refusedHost, "POST", "/session", 0, 1, true},      // refused: nothing was sent, retried
		{refusedHost, "POST", "/session", 0, 2, true},
		{refusedHost, "POST", "/session", 0, 3, true},
	}, parseLog(t, out))
	require.Contains(t, out, "connection refused", "a transport failure is named")
}

func TestNilLoggerIsSilentAndInfoLevelSkipsDebug(t *testing.T) {
	c, srv := replyingClient(t, `{"order_id":"o"}`, WithLogger(nil))
	_, err := c.GetOrder(context.Background(), "o")
	require.NoError(t, err)

	var buf testio.SyncBuffer
	c = newTestClient(t, srv.URL, WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	_, err = c.GetOrder(context.Background(), "o")
	require.NoError(t, err)
	require.Empty(t, buf.String())
}
