package checkout_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// recObserver records what an Observer hears, as text lines.
type recObserver struct {
	checkout.NopObserver
	mu    sync.Mutex
	lines []string
	ops   []checkout.Operation
	ends  []checkout.OperationResult
}

type ctxMark struct{}

func (o *recObserver) add(s string) {
	o.mu.Lock()
	o.lines = append(o.lines, s)
	o.mu.Unlock()
}

func (o *recObserver) StartOperation(ctx context.Context, op checkout.Operation) context.Context {
	o.mu.Lock()
	o.ops = append(o.ops, op)
	o.mu.Unlock()
	o.add("start " + op.Name + " " + op.Method + " " + op.Route)
	return context.WithValue(ctx, ctxMark{}, "op")
}

func (o *recObserver) StartAttempt(ctx context.Context, op checkout.Operation, a checkout.Attempt) context.Context {
	if ctx.Value(ctxMark{}) != "op" {
		o.add("attempt without the operation's context")
	}
	if a.Kind == checkout.AttemptSend {
		o.add(fmt.Sprintf("attempt %d", a.Number))
	} else {
		o.add(fmt.Sprintf("%s attempt %d %s %s", a.Kind, a.Number, a.Method, a.Route))
	}
	return context.WithValue(ctx, ctxMark{}, "attempt")
}

func (o *recObserver) EndAttempt(ctx context.Context, op checkout.Operation, a checkout.Attempt) {
	if ctx.Value(ctxMark{}) != "attempt" {
		o.add("end attempt without the attempt's context")
	}
	o.add(fmt.Sprintf("end attempt %d status %d kind %q delivered %v", a.Number, a.HTTPStatus, a.ErrorKind, a.MaybeDelivered))
}

func (o *recObserver) EndOperation(ctx context.Context, op checkout.Operation, r checkout.OperationResult) {
	o.mu.Lock()
	o.ends = append(o.ends, r)
	o.mu.Unlock()
	o.add(fmt.Sprintf("end %s attempts %d status %d kind %q order %q", op.Name, r.Attempts, r.HTTPStatus, r.ErrorKind, r.OrderStatus))
}

func session(orderID string) *checkout.SessionRequest {
	return &checkout.SessionRequest{OrderID: orderID, Amount: checkout.AmountFromMinor(1000), CustomerID: "c1",
		CustomerPhone: "9876543210", CustomerEmail: "a@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage}
}

// fakeClient starts the fake and a client of it, in the JWE+JWS mode when
// jwe is set.
func fakeClient(t *testing.T, jwe bool, opts ...checkout.Option) (*checkouttest.Server, *checkout.Client) {
	t.Helper()
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	t.Cleanup(fake.Close)
	opts = append([]checkout.Option{checkout.WithBaseURL(fake.URL)}, opts...)
	if jwe {
		k := fake.JWE()
		opts = append(opts, checkout.WithJWE(k.KeyID, k.MerchantKey, k.ServiceKey))
	}
	c, err := checkout.NewClient("shop", "test_key", opts...)
	require.NoError(t, err)
	return fake, c
}

// Every call is heard as one operation with its attempts, named by the
// Client method and its route template, never the raw path; in both modes.
func TestObserverHearsOperations(t *testing.T) {
	for _, jwe := range []bool{false, true} {
		t.Run(fmt.Sprint("jwe=", jwe), func(t *testing.T) {
			o := &recObserver{}
			_, c := fakeClient(t, jwe, checkout.WithObserver(o))
			ctx := context.Background()
			_, err := c.CreateSession(ctx, session("ord_1"))
			require.NoError(t, err)
			_, err = c.GetOrder(ctx, "ord_1")
			require.NoError(t, err)
			_, err = c.GetOrder(ctx, "ord_missing")
			require.Error(t, err)
			route, method := "/orders/{order_id}", "GET"
			sroute := "/session"
			if jwe {
				route, method, sroute = "/v4/order-status", "POST", "/v4/session"
			}
			require.Equal(t, []string{
				"start CreateSession POST " + sroute, "attempt 1", "end attempt 1 status 200 kind \"\" delivered false",
				"end CreateSession attempts 1 status 200 kind \"\" order \"\"",
				"start GetOrder " + method + " " + route, "attempt 1", "end attempt 1 status 200 kind \"\" delivered false",
				"end GetOrder attempts 1 status 200 kind \"\" order \"NEW\"",
				"start GetOrder " + method + " " + route, "attempt 1", "end attempt 1 status 400 kind \"http\" delivered false",
				"end GetOrder attempts 1 status 400 kind \"http\" order \"\"",
			}, o.lines)
			require.Equal(t, "ord_1", o.ops[1].OrderID)
			require.Equal(t, jwe, o.ops[1].JWE)
			require.NotZero(t, o.ops[1].ServerPort)
			for _, op := range o.ops {
				require.NotContains(t, op.Route, "ord_")
			}
		})
	}
}

// A call that succeeds on its second attempt: two attempts, the first a 503
// that was not delivered; the response meta says the same.
func TestObserverAndMetaOnRetry(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", fmt.Sprint("req-", n.Load()))
		w.Header().Set("X-Response-Id", "resp-1")
		w.Header().Set("X-Correlation-Id", "corr")
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"status":"NEW","id":"ordeh_1","order_id":"o1","sdk_payload":{}}`)
	}))
	defer srv.Close()
	o := &recObserver{}
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithObserver(o),
		checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	require.NoError(t, err)
	var m checkout.ResponseMeta
	_, err = c.CreateSession(context.Background(), session("o1"), checkout.WithResponseMeta(&m))
	require.NoError(t, err)
	require.Equal(t, []string{"start CreateSession POST /session",
		"attempt 1", "end attempt 1 status 503 kind \"http\" delivered false",
		"attempt 2", "end attempt 2 status 200 kind \"\" delivered false",
		"end CreateSession attempts 2 status 200 kind \"\" order \"\""}, o.lines)
	require.Equal(t, 200, m.HTTPStatus)
	require.Equal(t, 2, m.Attempts)
	require.Equal(t, "req-1", m.RequestID)
	require.Equal(t, "resp-1", m.ResponseID)
	require.Equal(t, "corr", m.IDs["X-Correlation-Id"])
	require.Positive(t, m.Elapsed)
}

// The meta is filled on failure too, and a transport failure of a write is
// heard as possibly delivered; options refused before sending are heard as
// invalid with no attempt.
func TestMetaAndObserverOnFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		conn.Close() // after the request was read: it may have been delivered
	}))
	defer srv.Close()
	o := &recObserver{}
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithObserver(o))
	require.NoError(t, err)
	var m checkout.ResponseMeta
	_, err = c.CreateSession(context.Background(), session("o1"), checkout.WithResponseMeta(&m))
	var te *checkout.TransportError
	require.ErrorAs(t, err, &te)
	require.True(t, te.MaybeDelivered)
	require.Equal(t, 1, te.Attempts, "the write was sent once")
	// The settle step's read of the order (its connection dropped too,
	// three attempts) is part of the one operation: the meta and the
	// observer count every request, and hear the write's failure.
	require.Equal(t, 4, m.Attempts)
	require.Zero(t, m.HTTPStatus)
	require.Len(t, o.ends, 1)
	require.True(t, o.ends[0].MaybeDelivered)
	require.Equal(t, 4, o.ends[0].Attempts)
	require.Equal(t, checkout.ErrorKindConnection, o.ends[0].ErrorKind)
	require.Contains(t, o.lines, "settle attempt 3 GET /orders/{order_id}")

	_, err = c.GetOrder(context.Background(), "o1", checkout.WithHeader("Authorization", "x"), checkout.WithResponseMeta(&m))
	require.ErrorIs(t, err, checkout.ErrInvalidOption)
	require.Equal(t, checkout.ErrorKindInvalid, o.ends[1].ErrorKind)
	require.Zero(t, o.ends[1].Attempts)
	require.Zero(t, m.Attempts)

	_, err = c.GetOrder(context.Background(), "o1", checkout.WithResponseMeta(nil))
	require.ErrorIs(t, err, checkout.ErrInvalidOption)
}

// An observer hears each call and attempt; here it prints them.
func ExampleWithObserver() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL),
		checkout.WithObserver(printObserver{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, _ = c.CreateSession(context.Background(), session("ord_1"))
	_, _ = c.GetOrder(context.Background(), "ord_1")
	// Output:
	// CreateSession POST /session
	//   attempt 1: 200
	// CreateSession: 1 attempt(s), status 200
	// GetOrder GET /orders/{order_id}
	//   attempt 1: 200
	// GetOrder: 1 attempt(s), status 200
}

// printObserver prints what it hears; NopObserver gives the methods it
// leaves out (StartAttempt, ObserveDelivery).
type printObserver struct{ checkout.NopObserver }

func (printObserver) StartOperation(ctx context.Context, op checkout.Operation) context.Context {
	fmt.Println(op.Name, op.Method, op.Route)
	return ctx
}
func (printObserver) EndAttempt(_ context.Context, _ checkout.Operation, a checkout.Attempt) {
	fmt.Printf("  attempt %d: %d\n", a.Number, a.HTTPStatus)
}
func (printObserver) EndOperation(_ context.Context, op checkout.Operation, r checkout.OperationResult) {
	fmt.Printf("%s: %d attempt(s), status %d\n", op.Name, r.Attempts, r.HTTPStatus)
}

// The response metadata of a call, filled on success and failure alike:
// quote the service's ids to its support.
func ExampleWithResponseMeta() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	var m checkout.ResponseMeta
	_, err = c.GetOrder(context.Background(), "ord_unknown", checkout.WithResponseMeta(&m))
	fmt.Println(errors.Is(err, checkout.ErrNotFound), m.HTTPStatus, m.Attempts)
	// Output:
	// true 400 1
}

// A reply about another order is refused before the observer and the
// meta hear of the call: they hear the same error the caller gets, never a
// success with the other order's status.
func TestObserverHearsAnotherOrderAsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"order_id":"ord_OTHER","status":"CHARGED","status_id":21}`)
	}))
	defer srv.Close()
	o := &recObserver{}
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithObserver(o),
		checkout.WithRetry(checkout.RetryPolicy{}))
	require.NoError(t, err)
	_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_1", Amount: "10.00"})
	require.ErrorContains(t, err, "the reply is about another order")
	require.Len(t, o.ends, 1)
	require.Error(t, o.ends[0].Err)
	require.Empty(t, o.ends[0].OrderStatus, "not the other order's status")
	require.Equal(t, "ord_1", o.ops[0].OrderID)
	// The service answered a write: it may have acted, as the attempt and
	// the operation both say.
	require.True(t, o.ends[0].MaybeDelivered)
	require.Equal(t, checkout.ErrorKindDecode, o.ends[0].ErrorKind)
	require.Contains(t, o.lines, `end attempt 1 status 200 kind "decode" delivered true`)
}

// A write whose reply was lost and whose order the settle read found is
// one operation that succeeded: its send failed, the settle read is a
// child of the operation marked as such, and the operation is heard as
// the caller got it, replayed, with no failure counted.
func TestObserverHearsAReplayAsOneStory(t *testing.T) {
	fake := newFake(t)
	o := &recObserver{}
	tr := &lossyTransport{path: "/orders"}
	tr.lose.Store(1)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL), checkout.WithObserver(o),
		checkout.WithHTTPClient(&http.Client{Transport: tr}), checkout.WithRetry(fastRetry))
	require.NoError(t, err)
	order, err := c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_r", Amount: "10.00"})
	require.NoError(t, err)
	require.True(t, order.Replayed)
	require.Equal(t, []string{
		"start CreateOrder POST /orders",
		"attempt 1", `end attempt 1 status 0 kind "connection" delivered true`,
		"settle attempt 1 GET /orders/{order_id}", `end attempt 1 status 200 kind "" delivered false`,
		`end CreateOrder attempts 2 status 200 kind "" order "CREATED"`,
	}, o.lines)
	require.Len(t, o.ends, 1)
	require.True(t, o.ends[0].Replayed)
	require.False(t, o.ends[0].MaybeDelivered)
	require.NoError(t, o.ends[0].Err)
}

// What the service chose is bounded where it reaches the Observer and
// ResponseMeta: an unknown status is "_OTHER", id headers are few and
// short.
func TestServiceValuesAreBounded(t *testing.T) {
	long := strings.Repeat("X", 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 5001 {
			w.Header().Add(fmt.Sprintf("X-Id%d-Id", i), "v")
		}
		w.Header().Set("X-Request-Id", strings.Repeat("r", 4096))
		fmt.Fprintf(w, `{"order_id":"o1","status":%q}`, long)
	}))
	defer srv.Close()
	o := &recObserver{}
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithObserver(o))
	require.NoError(t, err)
	var m checkout.ResponseMeta
	st, err := c.GetOrder(context.Background(), "o1", checkout.WithResponseMeta(&m))
	require.NoError(t, err)
	require.Len(t, string(st.Status), 1<<20, "the reply keeps what the service sent")
	require.Equal(t, checkout.Status("_OTHER"), o.ends[0].OrderStatus)
	require.LessOrEqual(t, len(m.IDs), 16)
	for k, v := range m.IDs {
		require.LessOrEqual(t, len(k)+len(v), 64+128+len("…"), k)
	}
	require.LessOrEqual(t, len(m.RequestID), 128+len("…"))
	require.True(t, strings.HasPrefix(m.RequestID, "rrrr"), "x-request-id is read even among 5001 other ids")
	require.Contains(t, m.IDs, "X-Id0-Id", "the ids kept are the first by name, the same every time")

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = c.AwaitFinal(ctx, "o1", checkout.WithPollIntervals(time.Hour))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, len(err.Error()), 300, "the error quotes a bounded status")
}

// An observer that returns no context (a bug of its own) does not crash
// the call: its hooks still run, with the caller's context.
func TestObserverReturningNilContext(t *testing.T) {
	_, c := fakeClient(t, false, checkout.WithObserver(nilObserver{}))
	_, err := c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_nil", Amount: "10.00"})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	st, err := c.AwaitFinal(ctx, "ord_nil", checkout.WithPollIntervals(10*time.Millisecond))
	require.ErrorIs(t, err, context.DeadlineExceeded, "never paid: polled until the deadline")
	require.Equal(t, "ord_nil", st.OrderID)
}

type nilObserver struct{ checkout.NopObserver }

func (nilObserver) StartOperation(context.Context, checkout.Operation) context.Context { return nil }
func (nilObserver) StartAttempt(context.Context, checkout.Operation, checkout.Attempt) context.Context {
	return nil
}

// detachingObserver returns a context not derived from the caller's.
type detachingObserver struct{ checkout.NopObserver }

func (detachingObserver) StartOperation(context.Context, checkout.Operation) context.Context {
	return context.Background()
}

// The caller's deadline holds whatever context an observer returns.
func TestObserverContextKeepsCallerDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c, err := checkout.NewClient("m", "k", checkout.WithBaseURL(srv.URL), checkout.WithObserver(detachingObserver{}))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.GetOrder(ctx, "A")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}
