package checkout

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// newConnCountingServer starts a test server running h and counts the TCP
// connections clients open to it (Server.Config.ConnState).
func newConnCountingServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	conns := new(atomic.Int64)
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, conns
}

// createSessions runs workers goroutines making calls CreateSession calls
// each, and requires every call to succeed.
func createSessions(t *testing.T, c *Client, workers, calls int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				if _, err := c.CreateSession(context.Background(), baseSession()); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// 64 goroutines making 20 calls each reuse their connections: the default
// transport keeps enough idle connections per host, and every body is read
// to its end and closed.
func TestConnectionReuse(t *testing.T) {
	const workers, calls = 64, 20
	var requests atomic.Int64
	srv, conns := newConnCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"NEW","id":"ordeh_1","order_id":"order_dummy_1","sdk_payload":{"requestId":"r","payload":{"a":"b"}}}`))
	})
	c := newTestClient(t, srv.URL)

	createSessions(t, c, workers, calls)
	require.EqualValues(t, workers*calls, requests.Load())
	require.LessOrEqual(t, conns.Load(), int64(workers), "opened %d connections for %d workers", conns.Load(), workers)
}

// Error replies, retried replies and successes alike leave their connection
// reusable: their bodies are read to the end and closed.
func TestErrorBodiesAreDrained(t *testing.T) {
	var n atomic.Int64
	big := `{"status":"ERROR","error_message":"` + strings.Repeat("x", 3000) + `"}`
	srv, conns := newConnCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 4 {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(big))
		case 2:
			w.Write([]byte(`{"order_id":"o","status":"CHARGED"}`))
		case 3:
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(big))
		default:
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"status":"error","error_code":"access_denied"}`))
		}
	})
	c := newTestClient(t, srv.URL)
	for range 30 {
		_, _ = c.GetOrder(context.Background(), "o")
	}
	require.EqualValues(t, 1, conns.Load(), "every call reused the one connection")
	require.Greater(t, n.Load(), int64(30))
}

// More concurrent calls than the default transport's 64 connections share
// those 64: the calls beyond them wait for a free connection instead of
// dialling more, and all succeed.
func TestConnectionsBoundedAt64(t *testing.T) {
	const workers = 2 * maxConnsPerHost
	var inFlight, peak atomic.Int64
	srv, conns := newConnCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(20 * time.Millisecond) // hold the connection so the calls overlap
		w.Write([]byte(`{"status":"NEW","sdk_payload":{}}`))
	})
	c := newTestClient(t, srv.URL)

	createSessions(t, c, workers, 1)
	require.LessOrEqual(t, conns.Load(), int64(maxConnsPerHost), "opened %d connections", conns.Load())
	require.LessOrEqual(t, peak.Load(), int64(maxConnsPerHost))
	require.Greater(t, peak.Load(), int64(1), "the calls ran concurrently")
}
