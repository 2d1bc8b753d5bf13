package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Every call, successful, refused and retried, logged at debug level: the
// records name method, host, path, status and attempt, and hold neither the
// API key, nor the Authorization value, nor any part of a request body.
func TestDebugLogNeverHoldsSecretsOrBodies(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/session":
			w.Write([]byte(`{"status":"NEW","sdk_payload":{"requestId":"r"}}`))
		case r.URL.Path == "/orders":
			w.Write([]byte(`{"status":"CREATED","order_id":"o"}`))
		case strings.HasSuffix(r.URL.Path, "/refunds"):
			w.WriteHeader(400)
			w.Write([]byte(`{"status":"ERROR","error_message":"refund refused"}`))
		default:
			if n.Add(1) == 1 {
				w.WriteHeader(503)
				return
			}
			w.Write([]byte(`{"status":"CHARGED","order_id":"o"}`))
		}
	}))
	t.Cleanup(srv.Close)
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newTestClient(t, srv.URL, WithLogger(logger))
	ctx := context.Background()

	sess := baseSession()
	sess.CustomerEmail = "body-marker-email@example.com"
	sess.Description = "body-marker-description"
	_, err := c.CreateSession(ctx, sess, WithHeader("X-Custom", "header-marker"))
	require.NoError(t, err)
	order := fullOrder()
	order.Description = "body-marker-order"
	_, err = c.CreateOrder(ctx, order)
	require.NoError(t, err)
	_, err = c.GetOrder(ctx, "o")
	require.NoError(t, err)
	_, err = c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "body-marker-refund", Amount: "1.00"})
	require.Error(t, err)

	out := buf.String()
	for _, secret := range []string{testKey, testAuth, strings.TrimPrefix(testAuth, "Basic "), "body-marker", "header-marker",
		"asha@example.com", "Bengaluru", "sdk_payload", "refund refused"} {
		require.NotContains(t, out, secret)
	}
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m))
		records = append(records, m)
	}
	require.Len(t, records, 5, "one record per attempt (GetOrder took two)")
	type seen struct {
		method, path string
		status       float64
		attempt      float64
	}
	var got []seen
	for _, r := range records {
		require.Equal(t, "DEBUG", r["level"])
		require.Equal(t, strings.TrimPrefix(srv.URL, "http://"), r["host"])
		got = append(got, seen{r["method"].(string), r["path"].(string), r["status"].(float64), r["attempt"].(float64)})
	}
	require.Equal(t, []seen{
		{"POST", "/session", 200, 1},
		{"POST", "/orders", 200, 1},
		{"GET", "/orders/o", 503, 1},
		{"GET", "/orders/o", 200, 2},
		{"POST", "/orders/o/refunds", 400, 1},
	}, got)
}

func TestNilLoggerIsSilentAndInfoLevelSkipsDebug(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{"order_id":"o"}`})
	c := newTestClient(t, srv.URL, WithLogger(nil))
	_, err := c.GetOrder(context.Background(), "o")
	require.NoError(t, err)

	var buf syncBuffer
	c = newTestClient(t, srv.URL, WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	_, err = c.GetOrder(context.Background(), "o")
	require.NoError(t, err)
	require.Empty(t, buf.String())
}
