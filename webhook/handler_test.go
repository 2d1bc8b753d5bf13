package webhook

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
)

// postOrder delivers orderBody to srv over HTTP and checks the 200.
func postOrder(t *testing.T, srv *httptest.Server) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(orderBody))
	require.NoError(t, err)
	req.Header.Set("Authorization", BasicAuthorization(testUser, testPass))
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func TestHandlerStatuses(t *testing.T) {
	cfg := baseConfig()
	cfg.Headers = map[string]string{"X-Shop-Token": "tok-123"}
	cfg.MaxBodyBytes = 512
	cfg.Realm = "shop webhooks"
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var calls atomic.Int32
	h := v.Handler(func(context.Context, *Event) error { calls.Add(1); return nil })

	tests := []struct {
		name   string
		edit   func(r *http.Request)
		status int
		header map[string]string
		called bool
	}{
		{"ok", func(*http.Request) {}, 200, nil, true},
		{"wrong source", func(r *http.Request) { r.RemoteAddr = "203.0.113.1:1" }, 403, nil, false},
		{"bad credentials", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization(testUser, "x")) }, 401,
			map[string]string{"WWW-Authenticate": `Basic realm="shop webhooks", charset="UTF-8"`}, false},
		{"missing credentials", func(r *http.Request) { r.Header.Del("Authorization") }, 401,
			map[string]string{"WWW-Authenticate": `Basic realm="shop webhooks", charset="UTF-8"`}, false},
		{"custom header mismatch", func(r *http.Request) { r.Header.Set("X-Shop-Token", "no") }, 401, nil, false},
		{"too large", func(r *http.Request) { setBody(r, bytes.Repeat([]byte("x"), 600), 600) }, 413, nil, false},
		{"not parseable", func(r *http.Request) { setBody(r, []byte(`{"event_name":`), -1) }, 400, nil, false},
		{"GET", func(r *http.Request) { r.Method = http.MethodGet }, 405, map[string]string{"Allow": "POST"}, false},
		{"jwt without decrypter", func(r *http.Request) { setBody(r, []byte(`{"JWT":"a.b.c.d.e"}`), -1) }, 500, nil, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(strings.Replace(orderBody, "evt_V2_1", "evt_status_"+string(rune('a'+i)), 1))
			r := NewTestRequest(cfg, body)
			tt.edit(r)
			before := calls.Load()
			rec := serve(h, r)
			require.Equal(t, tt.status, rec.Code)
			require.Equal(t, http.StatusText(tt.status)+"\n", rec.Body.String())
			for k, want := range tt.header {
				require.Equal(t, want, rec.Header().Get(k))
			}
			if tt.status != 401 {
				require.Empty(t, rec.Header().Get("WWW-Authenticate"))
			}
			require.Equal(t, tt.called, calls.Load() == before+1)
		})
	}
}

func TestHandlerFailureIsResentAndDuplicatesIgnored(t *testing.T) {
	cfg := baseConfig()
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var calls []string
	fail := true
	h := v.Handler(func(ctx context.Context, ev *Event) error {
		calls = append(calls, ev.ID)
		if fail {
			fail = false
			return errors.New("database down")
		}
		return nil
	})
	body := []byte(orderBody)

	require.Equal(t, 500, serve(h, NewTestRequest(cfg, body)).Code, "fn failed: the service must re-send")
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, body)).Code, "re-send processed")
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, body)).Code, "duplicate acknowledged")
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, body)).Code, "duplicate acknowledged")
	require.Equal(t, []string{"evt_V2_1", "evt_V2_1"}, calls, "fn ran for the failure and the first success only")

	// Another event is processed.
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, []byte(strings.Replace(orderBody, "evt_V2_1", "evt_V2_2", 1)))).Code)
	require.Len(t, calls, 3)
}

func TestHandlerPanicReleasesEvent(t *testing.T) {
	cfg := baseConfig()
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	n := 0
	h := v.Handler(func(context.Context, *Event) error {
		n++
		if n == 1 {
			panic("boom")
		}
		return nil
	})
	require.PanicsWithValue(t, "boom", func() { serve(h, NewTestRequest(cfg, []byte(orderBody))) })
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Equal(t, 2, n)
}

func TestHandlerNilFunctionAndNilVerifier(t *testing.T) {
	cfg := baseConfig()
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	require.Equal(t, 500, serve(v.Handler(nil), NewTestRequest(cfg, []byte(orderBody))).Code)

	var nilV *Verifier
	h := nilV.Handler(func(context.Context, *Event) error { t.Fatal("called"); return nil })
	require.Equal(t, 500, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
}

// stubClaims lets a test make the claim store answer or fail as it
// wants. It records the tokens of its claims and those Done and Release get
// back.
type stubClaims struct {
	claimErr, doneErr, releaseErr error

	mu                  sync.Mutex
	claimed, ended      []string
	doneCalls, released int
}

func (s *stubClaims) Claim(_ context.Context, _, token string, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.claimed = append(s.claimed, token)
	return s.claimErr
}
func (s *stubClaims) Extend(context.Context, string, string, time.Duration) error { return nil }
func (s *stubClaims) Done(_ context.Context, _, token string, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.doneCalls++
	s.ended = append(s.ended, token)
	return s.doneErr
}
func (s *stubClaims) Release(_ context.Context, _, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.released++
	s.ended = append(s.ended, token)
	return s.releaseErr
}

func TestHandlerClaimStoreFailures(t *testing.T) {
	down := errors.New("redis down")
	tests := []struct {
		name         string
		dd           *stubClaims
		fnErr        error
		status       int
		called       bool
		done, unheld bool // Done called (more than once when it fails), Release called
	}{
		{"claim fails: not processed, re-sent", &stubClaims{claimErr: down}, nil, 500, false, false, false},
		{"done fails after success: retried, still 200", &stubClaims{doneErr: down}, nil, 200, true, true, false},
		{"fn fails: released", &stubClaims{}, errors.New("x"), 500, true, false, true},
		{"release fails: still 500", &stubClaims{releaseErr: down}, errors.New("x"), 500, true, false, true},
		{"already done", &stubClaims{claimErr: claim.ErrDone}, nil, 200, false, false, false},
		{"in flight for longer than DuplicateWait", &stubClaims{claimErr: claim.ErrBusy}, nil, 409, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.Claims = tt.dd
			cfg.DuplicateWait = 20 * time.Millisecond
			cfg.DedupLease = 100 * time.Millisecond // bounds Done's retries
			var logs bytes.Buffer
			cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			v, err := NewVerifier(cfg)
			require.NoError(t, err)
			called := false
			h := v.Handler(func(context.Context, *Event) error { called = true; return tt.fnErr })
			require.Equal(t, tt.status, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
			require.Equal(t, tt.called, called)
			require.Equal(t, tt.done, tt.dd.doneCalls > 0)
			if tt.done && tt.dd.doneErr != nil {
				require.Greater(t, tt.dd.doneCalls, 1, "a failed Done is tried again")
			}
			require.Equal(t, tt.unheld, tt.dd.released > 0)
			for _, tok := range tt.dd.ended {
				require.Equal(t, tt.dd.claimed[0], tok, "the delivery ends the claim it made")
			}
			require.Contains(t, logs.String(), "evt_V2_1")
		})
	}
}

func TestHandlerLogsNoSecrets(t *testing.T) {
	var logs bytes.Buffer
	cfg := baseConfig()
	cfg.Headers = map[string]string{"X-Shop-Token": "tok-secret-123"}
	cfg.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	h := v.Handler(func(context.Context, *Event) error { return errors.New("merchant failure") })

	reqs := []*http.Request{
		NewTestRequest(cfg, []byte(orderBody)), // fn fails: error log
		NewTestRequest(cfg, []byte(`{"JWT":"eyJ.secret.token.parts.here"}`)),
		NewTestRequest(cfg, []byte(`{"not":"an event","card_number":"4111111111111111"}`)),
	}
	r := NewTestRequest(cfg, []byte(orderBody))
	r.Header.Set("Authorization", BasicAuthorization(testUser, testPass+"-wrong"))
	reqs = append(reqs, r)
	r = NewTestRequest(cfg, []byte(orderBody))
	r.Header.Set("X-Shop-Token", "tok-secret-124")
	reqs = append(reqs, r)
	// An event id as long as a body is cut short in the record.
	longID := strings.Repeat("L", 4000)
	reqs = append(reqs, NewTestRequest(cfg, []byte(`{"id":"`+longID+`","event_name":"ORDER_SUCCEEDED"}`)))
	for _, r := range reqs {
		serve(h, r)
	}
	out := logs.String()
	require.Equal(t, 6, strings.Count(out, "\n"), out)
	require.Contains(t, out, `"event_id":"`+longID[:128]+`"`)
	require.NotContains(t, out, longID[:129])
	for _, secret := range []string{testPass, "tok-secret-12", "4111111111111111", "secret.token", "ord_1",
		base64.StdEncoding.EncodeToString([]byte(testUser + ":" + testPass))[:12]} {
		require.NotContains(t, out, secret)
	}
	require.Contains(t, out, `"event_id":"evt_V2_1"`)
	require.Contains(t, out, "merchant failure")
	require.Contains(t, out, `"level":"ERROR"`)
	require.Contains(t, out, `"level":"WARN"`)
}

func TestHandlerServesHTTPConcurrentlyOverLoopback(t *testing.T) {
	cfg := Config{Username: testUser, Password: testPass, Sources: prefixes("127.0.0.0/8", "::1/128")}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(v.Handler(func(_ context.Context, ev *Event) error {
		mu.Lock()
		seen[ev.ID]++
		mu.Unlock()
		return nil
	}))
	defer srv.Close()
	for i := 0; i < 3; i++ {
		postOrder(t, srv)
	}
	require.Equal(t, map[string]int{"evt_V2_1": 1}, seen)
}

// ctxDedup records whether Done and Release got a live context.
type ctxDedup struct {
	*claim.Memory
	doneCtxErr, releaseCtxErr error
}

func (d *ctxDedup) Done(ctx context.Context, key, token string, keep time.Duration) error {
	d.doneCtxErr = ctx.Err()
	return d.Memory.Done(ctx, key, token, keep)
}

func (d *ctxDedup) Release(ctx context.Context, key, token string) error {
	d.releaseCtxErr = ctx.Err()
	return d.Memory.Release(ctx, key, token)
}

func TestHandlerRecordsOutcomeAfterSenderHangsUp(t *testing.T) {
	for _, fnErr := range []error{nil, errors.New("failed")} {
		dd := &ctxDedup{Memory: claim.NewMemory(claim.MemoryConfig{})}
		cfg := baseConfig()
		cfg.Claims = dd
		v, err := NewVerifier(cfg)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		h := v.Handler(func(context.Context, *Event) error { cancel(); return fnErr })
		serve(h, NewTestRequest(cfg, []byte(orderBody)).WithContext(ctx))
		require.NoError(t, dd.doneCtxErr)
		require.NoError(t, dd.releaseCtxErr)
		done, held, _ := dd.Len()
		require.Equal(t, 0, held, "the key is not left claimed")
		require.Equal(t, fnErr == nil, done == 1)
	}
}

// recordingObserver keeps every checkout.Delivery it hears.
type recordingObserver struct {
	checkout.NopObserver
	mu sync.Mutex
	ds []checkout.Delivery
}

func (o *recordingObserver) ObserveDelivery(_ context.Context, d checkout.Delivery) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ds = append(o.ds, d)
}

func (o *recordingObserver) outcomes() []checkout.DeliveryOutcome {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []checkout.DeliveryOutcome
	for _, d := range o.ds {
		out = append(out, d.Outcome)
	}
	return out
}

// The Observer hears each delivery's outcome, status, event name and
// duration: a webhook delivered twice is one processed and one duplicate
// (issue 28), and every refusal has its outcome.
func TestHandlerObserver(t *testing.T) {
	obs := &recordingObserver{}
	cfg := baseConfig()
	cfg.Observer = obs
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	fail := false
	h := v.Handler(func(context.Context, *Event) error {
		if fail {
			return errors.New("shop down")
		}
		return nil
	})
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Equal(t, []checkout.DeliveryOutcome{checkout.DeliveryProcessed, checkout.DeliveryDuplicate}, obs.outcomes())
	require.Equal(t, checkout.Delivery{Outcome: checkout.DeliveryProcessed, HTTPStatus: 200, EventName: OrderSucceeded, Duration: obs.ds[0].Duration}, obs.ds[0])
	require.Positive(t, obs.ds[0].Duration)

	obs.ds = nil
	other := []byte(strings.Replace(orderBody, "evt_V2_1", "evt_V2_observed", 1))
	fail = true
	require.Equal(t, 500, serve(h, NewTestRequest(cfg, other)).Code)
	r := NewTestRequest(cfg, other)
	r.RemoteAddr = "203.0.113.1:1"
	require.Equal(t, 403, serve(h, r).Code)
	r = NewTestRequest(cfg, other)
	r.Header.Set("Authorization", BasicAuthorization(testUser, "wrong"))
	require.Equal(t, 401, serve(h, r).Code)
	require.Equal(t, 400, serve(h, NewTestRequest(cfg, []byte(`{"event_name":`))).Code)
	require.Equal(t, 500, serve(h, NewTestRequest(cfg, []byte(`{"JWT":"a.b.c.d.e"}`))).Code)
	require.Equal(t, 500, serve(v.Handler(nil), NewTestRequest(cfg, other)).Code)
	require.Equal(t, []checkout.DeliveryOutcome{checkout.DeliveryHandlerError, checkout.DeliveryForbidden, checkout.DeliveryUnauthorized, checkout.DeliveryDecodeFailure, checkout.DeliveryNotConfigured, checkout.DeliveryNotConfigured}, obs.outcomes())
	require.Equal(t, "", obs.ds[1].EventName, "nothing of a refused body is observed")
}

// A sender trickling its body behind a server without ReadTimeout is cut
// off at the handler's own read deadline, not held forever (issue 26).
func TestHandlerReadDeadline(t *testing.T) {
	cfg := Config{Username: testUser, Password: testPass, AllowAnySource: true, ReadTimeout: 200 * time.Millisecond}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(v.Handler(func(context.Context, *Event) error { return nil })) // no ReadTimeout
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{",
		BasicAuthorization(testUser, testPass), len(orderBody))
	require.NoError(t, err)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // one byte every 50 ms: never done within the deadline
		for _, c := range []byte(orderBody[1:]) {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := conn.Write([]byte{c}); err != nil {
				return
			}
		}
	}()
	start := time.Now()
	require.NoError(t, conn.SetReadDeadline(start.Add(5*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "the handler must answer, not wait for the body")
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	require.Less(t, time.Since(start), 2*time.Second)
}

// The read deadline is lifted once the body is read: a function running
// longer than ReadTimeout keeps a live context.
func TestHandlerReadDeadlineLiftedForFn(t *testing.T) {
	cfg := Config{Username: testUser, Password: testPass, AllowAnySource: true, ReadTimeout: 100 * time.Millisecond}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(v.Handler(func(ctx context.Context, _ *Event) error {
		time.Sleep(300 * time.Millisecond)
		return ctx.Err()
	}))
	defer srv.Close()
	postOrder(t, srv)
}

func TestHandlerConcurrentDuplicatesAllGet200(t *testing.T) {
	for _, kind := range dedupKinds() {
		for _, n := range []int{10, 32} {
			t.Run(kind.name+"/"+strconv.Itoa(n), func(t *testing.T) {
				dd, probe := kind.make()
				cfg := baseConfig()
				cfg.Claims = dd
				v, err := NewVerifier(cfg)
				require.NoError(t, err)
				var calls atomic.Int32
				gate := make(chan struct{})
				h := v.Handler(func(context.Context, *Event) error {
					calls.Add(1)
					<-gate
					return nil
				})
				codes := deliverAll(h, cfg, n)
				// Every other delivery has been told the event is in flight
				// and is waiting; only then may the first finish.
				eventually(t, func() bool { return calls.Load() == 1 && probe.waitingCount() == n-1 }, "duplicates waiting")
				close(gate)
				require.Equal(t, map[int]int{http.StatusOK: n}, collect(codes, n))
				require.Equal(t, int32(1), calls.Load(), "fn ran once")
				require.Equal(t, [2]int{1, 0}, probe.doneAndHeld())
			})
		}
	}
}

func TestHandlerFirstDeliveryFailsAWaiterProcessesTheEvent(t *testing.T) {
	for _, kind := range dedupKinds() {
		t.Run(kind.name, func(t *testing.T) {
			const n = 10
			dd, probe := kind.make()
			cfg := baseConfig()
			cfg.Claims = dd
			v, err := NewVerifier(cfg)
			require.NoError(t, err)
			var calls, succeeded atomic.Int32
			gate := make(chan struct{})
			h := v.Handler(func(context.Context, *Event) error {
				if calls.Add(1) == 1 {
					<-gate
					return errors.New("first try fails")
				}
				succeeded.Add(1)
				return nil
			})
			codes := deliverAll(h, cfg, n)
			eventually(t, func() bool { return calls.Load() == 1 && probe.waitingCount() == n-1 }, "duplicates waiting")
			close(gate)
			// The failed delivery gets 500 (the service will re-send it);
			// one waiter runs fn; everyone else is told 200 after that.
			require.Equal(t, map[int]int{http.StatusInternalServerError: 1, http.StatusOK: n - 1}, collect(codes, n))
			require.Equal(t, int32(2), calls.Load(), "exactly one waiter ran fn")
			require.Equal(t, int32(1), succeeded.Load(), "processed exactly once")
			require.Equal(t, [2]int{1, 0}, probe.doneAndHeld())

			// The service's re-send of the failed delivery is a duplicate now.
			require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
			require.Equal(t, int32(2), calls.Load())
		})
	}
}

func TestHandlerDuplicateWaitEnds(t *testing.T) {
	tests := []struct {
		name   string
		wait   time.Duration
		cancel bool // the duplicate's sender hangs up while it waits
	}{
		{"DuplicateWait elapses", 30 * time.Millisecond, false},
		{"sender hangs up", 0, true}, // default wait (10 s): the context ends it
		{"negative DuplicateWait: no wait", -1, false},
	}
	for _, tt := range tests {
		for _, kind := range dedupKinds() {
			t.Run(tt.name+"/"+kind.name, func(t *testing.T) {
				dd, probe := kind.make()
				cfg := baseConfig()
				cfg.Claims = dd
				cfg.DuplicateWait = tt.wait
				v, err := NewVerifier(cfg)
				require.NoError(t, err)
				var calls atomic.Int32
				started := make(chan struct{})
				gate := make(chan struct{})
				h := v.Handler(func(context.Context, *Event) error {
					calls.Add(1)
					close(started)
					<-gate
					return nil
				})
				first := make(chan int, 1)
				go func() { first <- serve(h, NewTestRequest(cfg, []byte(orderBody))).Code }()
				<-started

				ctx, cancel := context.WithCancel(context.WithValue(context.Background(), reqIDKey{}, 1))
				defer cancel()
				if tt.cancel {
					go func() {
						for probe.waitingCount() == 0 {
							time.Sleep(time.Millisecond)
						}
						cancel()
					}()
				}
				rec := serve(h, NewTestRequest(cfg, []byte(orderBody)).WithContext(ctx))
				// Never 200 while the event is not processed.
				require.Equal(t, http.StatusConflict, rec.Code)
				require.Equal(t, "5", rec.Header().Get("Retry-After"))
				if tt.wait < 0 {
					require.Equal(t, int32(2), probe.claims.Load(), "no wait: Claim asked once per delivery")
				}

				close(gate)
				require.Equal(t, http.StatusOK, <-first)
				// The service's re-send is acknowledged without running fn.
				require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
				require.Equal(t, int32(1), calls.Load())
			})
		}
	}
}

// claimFailsWhileWaiting answers ErrBusy once, then fails.
type claimFailsWhileWaiting struct {
	stubClaims
	n atomic.Int32
}

func (d *claimFailsWhileWaiting) Claim(context.Context, string, string, time.Duration) error {
	if d.n.Add(1) == 1 {
		return claim.ErrBusy
	}
	return errors.New("store down")
}

func TestHandlerClaimStoreFailsWhileWaiting(t *testing.T) {
	cfg := baseConfig()
	cfg.Claims = &claimFailsWhileWaiting{}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	called := false
	h := v.Handler(func(context.Context, *Event) error { called = true; return nil })
	require.Equal(t, http.StatusInternalServerError, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.False(t, called)
}
