package checkout_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// lossyTransport delivers every request, but for the first lose POSTs to
// path it reads the reply and then fails as a connection reset would: the
// service acted, the client never heard.
type lossyTransport struct {
	path string
	lose atomic.Int32
}

func (l *lossyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || r.Method != http.MethodPost || r.URL.Path != l.path || l.lose.Add(-1) < 0 {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return nil, errors.New("connection reset by peer")
}

// lossyClient is a client of fake whose first lose POSTs to path lose
// their reply.
func lossyClient(t testing.TB, fake *checkouttest.Server, path string, lose int32, retry checkout.RetryPolicy) *checkout.Client {
	t.Helper()
	tr := &lossyTransport{path: path}
	tr.lose.Store(lose)
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL),
		checkout.WithHTTPClient(&http.Client{Transport: tr}), checkout.WithRetry(retry))
	require.NoError(t, err)
	return c
}

var fastRetry = checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 5 * time.Millisecond}

func newFake(t testing.TB) *checkouttest.Server {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	t.Cleanup(fake.Close)
	return fake
}

func TestReplayCreateOrder(t *testing.T) {
	ctx := context.Background()
	req := &checkout.OrderRequest{OrderID: "o-1", Amount: "10.00", Currency: "INR", CustomerID: "cust-1"}

	t.Run("lost reply: the order once, replayed", func(t *testing.T) {
		fake := newFake(t)
		o, err := lossyClient(t, fake, "/orders", 1, fastRetry).CreateOrder(ctx, req)
		require.NoError(t, err)
		require.True(t, o.Replayed)
		require.Equal(t, "o-1", o.OrderID)
		require.Equal(t, "INR", o.Currency)
		require.NotEmpty(t, o.ID)
		require.Equal(t, 1, fake.Count(http.MethodPost, "/orders"), "the order was not sent again")
		_, err = fake.Order("o-1")
		require.NoError(t, err)
	})
	t.Run("differing replay: a conflict", func(t *testing.T) {
		fake := newFake(t)
		c := lossyClient(t, fake, "/orders", 0, fastRetry)
		_, err := c.CreateOrder(ctx, req)
		require.NoError(t, err)
		other := *req
		other.Amount, other.CustomerID = "12.00", "cust-2"
		_, err = c.CreateOrder(ctx, &other) // the fake answers "already exists"
		var ce *checkout.ConflictError
		require.ErrorAs(t, err, &ce)
		require.Equal(t, []string{"amount", "customer_id"}, ce.Fields)
		require.Equal(t, `checkout: create order: order "o-1" already exists with another amount, customer_id`, ce.Error())

		// A lost reply whose order differs is the same conflict.
		c = lossyClient(t, fake, "/orders", 1, fastRetry)
		other.Amount = "10.00"
		_, err = c.CreateOrder(ctx, &other)
		require.ErrorAs(t, err, &ce)
		require.Equal(t, []string{"customer_id"}, ce.Fields)
	})
	t.Run("no order yet: sent again", func(t *testing.T) {
		fake := newFake(t)
		require.NoError(t, fake.InjectFault(checkouttest.Fault{Method: http.MethodPost, Path: "/orders", Drop: true}))
		o, err := lossyClient(t, fake, "/orders", 0, fastRetry).CreateOrder(ctx, req)
		require.NoError(t, err)
		require.False(t, o.Replayed)
		require.Equal(t, 2, fake.Count(http.MethodPost, "/orders"))
	})
	t.Run("retries off: no replay", func(t *testing.T) {
		fake := newFake(t)
		_, err := lossyClient(t, fake, "/orders", 1, checkout.RetryPolicy{}).CreateOrder(ctx, req)
		var te *checkout.TransportError
		require.ErrorAs(t, err, &te)
		require.True(t, te.MaybeDelivered)
		require.Equal(t, 0, fake.Count(http.MethodGet, "/orders/o-1"))
	})
}

func TestReplayCreateSession(t *testing.T) {
	fake := newFake(t)
	req := &checkout.SessionRequest{OrderID: "s-1", Amount: "10.00", CustomerID: "cust-1", CustomerPhone: "9876543210", CustomerEmail: "a@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage}
	s, err := lossyClient(t, fake, "/session", 1, fastRetry).CreateSession(context.Background(), req)
	require.NoError(t, err)
	require.True(t, s.Replayed)
	require.NotEmpty(t, s.SDKPayload)
	require.Equal(t, 2, fake.Count(http.MethodPost, "/session"), "asked again for a session of the order")

	other := *req
	other.Amount = "11.00"
	_, err = lossyClient(t, fake, "/session", 1, fastRetry).CreateSession(context.Background(), &other)
	var ce *checkout.ConflictError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "create session", ce.Op)
}

func TestReplayRefund(t *testing.T) {
	ctx := context.Background()
	fake := newFake(t)
	c := lossyClient(t, fake, "", 0, fastRetry)
	for _, id := range []string{"r-1", "r-2"} {
		_, err := c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: id, Amount: "10.00"})
		require.NoError(t, err)
		require.NoError(t, fake.Pay(id))
	}

	st, err := lossyClient(t, fake, "/orders/r-1/refunds", 1, fastRetry).Refund(ctx, "r-1", &checkout.RefundRequest{UniqueRequestID: "u-1", Amount: "4.00"})
	require.NoError(t, err)
	require.Len(t, st.Refunds, 1)
	require.True(t, st.Refunds[0].Replayed)
	require.Equal(t, 1, fake.Count(http.MethodPost, "/orders/r-1/refunds"))

	// Sent again by hand with the same id: the service says it exists.
	st, err = c.Refund(ctx, "r-1", &checkout.RefundRequest{UniqueRequestID: "u-1", Amount: "4.00"})
	require.NoError(t, err)
	require.Len(t, st.Refunds, 1)
	require.True(t, st.Refunds[0].Replayed)
	_, err = c.Refund(ctx, "r-1", &checkout.RefundRequest{UniqueRequestID: "u-1", Amount: "5.00"})
	var ce *checkout.ConflictError
	require.ErrorAs(t, err, &ce)
	require.ErrorIs(t, err, checkout.ErrInvalidRequest, "the service's refusal is kept")
	require.Equal(t, `checkout: refund: refund "u-1" of order "r-1" already exists with another amount`, ce.Error())

	// By transaction, the order named only by its txn_id.
	o, err := fake.Order("r-2")
	require.NoError(t, err)
	r, err := lossyClient(t, fake, "/refunds", 1, fastRetry).RefundTransaction(ctx,
		&checkout.TransactionRefundRequest{UniqueRequestID: "u-2", TxnID: "shop-r-2-1", Amount: "1.00"})
	require.NoError(t, err, "order %+v", o)
	require.True(t, r.Replayed)
	require.Equal(t, "u-2", r.UniqueRequestID)
	require.Equal(t, 1, fake.Count(http.MethodPost, "/refunds"))
}

// A refund the service lists inside txn_list (an order paid by several
// transactions) is found by the replay, not sent again; a 500 to the write
// is an unknown outcome that the replay settles the same way.
func TestReplayRefundInsideTxnList(t *testing.T) {
	for _, lose := range []string{"drop", "500"} {
		var posts atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				posts.Add(1)
				if lose == "500" {
					w.WriteHeader(http.StatusInternalServerError)
					return
				}
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			fmt.Fprint(w, `{"order_id":"m-1","status":"CHARGED","amount":"10.00","txn_list":[`+
				`{"txn_id":"shop-m-1-1","refunds":[{"unique_request_id":"u-9","amount":"2.00","status":"PENDING"}]}]}`)
		}))
		t.Cleanup(srv.Close)
		c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithRetry(fastRetry))
		require.NoError(t, err)
		st, err := c.Refund(context.Background(), "m-1", &checkout.RefundRequest{UniqueRequestID: "u-9", Amount: "2.00"})
		require.NoError(t, err, lose)
		require.EqualValues(t, 1, posts.Load(), "%s: the refund is not sent again", lose)
		require.True(t, st.TxnList[0].Refunds[0].Replayed, lose)
	}
}

// A CreateOrder whose reply is lost on the way back returns the order the
// service made, marked replayed, instead of an error that leaves the
// merchant guessing.
func ExampleConflictError() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	tr := &lossyTransport{path: "/orders"}
	tr.lose.Store(1) // the first reply is lost after the fake made the order
	client, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL),
		checkout.WithHTTPClient(&http.Client{Transport: tr}))

	ctx := context.Background()
	order, err := client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord-7", Amount: "10.00"})
	fmt.Println(order.OrderID, order.Replayed, err)

	_, err = client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord-7", Amount: "99.00"})
	var conflict *checkout.ConflictError
	fmt.Println(errors.As(err, &conflict), conflict.Fields)
	// Output:
	// ord-7 true <nil>
	// true [amount]
}

// AwaitFinal polls an order until it is paid or has failed.
func ExampleClient_AwaitFinal() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	client, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	ctx := context.Background()
	_, _ = client.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord-8", Amount: "10.00"})
	time.AfterFunc(30*time.Millisecond, func() { _ = fake.Pay("ord-8") }) // the customer pays

	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := client.AwaitFinal(ctx, "ord-8", checkout.WithPollIntervals(10*time.Millisecond))
	fmt.Println(st.Status, err)
	// Output: CHARGED <nil>
}

// scripted answers each request with the next reply of its "METHOD path",
// the last one repeating, and counts the requests.
type scripted struct {
	mu      chan struct{}
	replies map[string][]func(w http.ResponseWriter)
	counts  map[string]int
}

func newScripted(t *testing.T, replies map[string][]func(w http.ResponseWriter)) (*scripted, *httptest.Server) {
	s := &scripted{mu: make(chan struct{}, 1), replies: replies, counts: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Method + " " + r.URL.Path
		s.mu <- struct{}{}
		n := s.counts[key]
		s.counts[key]++
		<-s.mu
		rs := s.replies[key]
		if len(rs) == 0 {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		rs[min(n, len(rs)-1)](w)
	}))
	t.Cleanup(srv.Close)
	return s, srv
}

func (s *scripted) count(key string) int {
	s.mu <- struct{}{}
	defer func() { <-s.mu }()
	return s.counts[key]
}

func answer(status int, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
}

// MaxRetries bounds the sends of one write, whatever made them: retries of
// a 503 and sends after a settle read found nothing share one budget of
// MaxRetries+1. Each unknown outcome is settled by one read.
func TestWriteSendsBoundedByMaxRetries(t *testing.T) {
	busy, crash := answer(503, `{"status":"ERROR"}`), answer(500, `{"status":"ERROR"}`)
	s, srv := newScripted(t, map[string][]func(http.ResponseWriter){
		"POST /orders":   {busy, crash, crash, crash},
		"GET /orders/o9": {answer(400, `{"status":"NOT_FOUND","status_id":40}`)},
	})
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithRetry(fastRetry))
	require.NoError(t, err)
	_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "o9", Amount: "10.00"})
	require.ErrorIs(t, err, checkout.ErrServer)
	require.Equal(t, fastRetry.MaxRetries+1, s.count("POST /orders"), "503, 500, then one send after the settle read")
	require.Equal(t, 2, s.count("GET /orders/o9"), "each unknown outcome is read once, the last one too")
}

// A refund answered 200 with a body that is not its reply (a proxy's page)
// may have taken effect: the order is read, and the refund found there is
// returned replayed instead of a decode error.
func TestUnreadable2xxToAWriteIsSettled(t *testing.T) {
	s, srv := newScripted(t, map[string][]func(http.ResponseWriter){
		"POST /orders/o1/refunds": {answer(200, `<html><body>OK</body></html>`)},
		"GET /orders/o1": {answer(200, `{"order_id":"o1","status":"CHARGED","amount":"10.00",`+
			`"refunds":[{"unique_request_id":"rf-1","status":"PENDING","amount":"4.00"}]}`)},
	})
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithRetry(fastRetry))
	require.NoError(t, err)
	st, err := c.Refund(context.Background(), "o1", &checkout.RefundRequest{UniqueRequestID: "rf-1", Amount: "4.00"})
	require.NoError(t, err)
	require.Len(t, st.Refunds, 1)
	require.True(t, st.Refunds[0].Replayed, "the refund found is marked replayed")
	require.Equal(t, 1, s.count("POST /orders/o1/refunds"), "not sent again: it was made")

	// Unsettled (retries off), the error says it may have taken effect.
	c, err = checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithRetry(checkout.RetryPolicy{}))
	require.NoError(t, err)
	_, err = c.Refund(context.Background(), "o1", &checkout.RefundRequest{UniqueRequestID: "rf-2", Amount: "1.00"})
	var te *checkout.TransportError
	require.ErrorAs(t, err, &te)
	require.True(t, te.MaybeDelivered)
	require.Contains(t, err.Error(), "check with GetOrder before resending")
}

// A settle read whose reply names no order proves nothing: the write's
// error stands, and the write is not taken as made.
func TestSettleReadMustNameTheOrder(t *testing.T) {
	s, srv := newScripted(t, map[string][]func(http.ResponseWriter){
		"POST /orders":   {answer(502, `bad gateway`)},
		"GET /orders/o2": {answer(200, `{"status":"CHARGED","amount":"10.00"}`)},
	})
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL), checkout.WithRetry(fastRetry))
	require.NoError(t, err)
	o, err := c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "o2", Amount: "10.00"})
	require.Nil(t, o)
	require.ErrorIs(t, err, checkout.ErrServer)
	require.Equal(t, 1, s.count("POST /orders"))
}

// A write answered about another order, settled and sent again, returns
// nothing of the refused reply: not its payment link, token or expiry.
func TestReplyOfAnotherOrderLeavesNothing(t *testing.T) {
	sessionReq := &checkout.SessionRequest{OrderID: "A", Amount: "100.00", CustomerID: "customer_id",
		CustomerPhone: "8888899999", CustomerEmail: "a@b.co", PaymentPageClientID: "p", Action: checkout.PaymentPage}
	for name, tc := range map[string]struct {
		path, first, second, read string
		call                      func(c *checkout.Client) (web string, expiry time.Time, err error)
	}{
		"order, nothing made": {"/orders",
			`{"order_id":"B","id":"ordeh_B","status":"NEW","payment_links":{"web":"https://pay.example/B"},"juspay":{"client_auth_token":"tkn_B"}}`,
			`{"order_id":"A","id":"ordeh_A","status":"NEW"}`, "",
			func(c *checkout.Client) (string, time.Time, error) {
				o, err := c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "A", Amount: "10.00"})
				if err != nil {
					return "", time.Time{}, err
				}
				require.Empty(t, string(o.ClientAuthToken))
				return o.PaymentLinks.Web, o.OrderExpiry.Time, nil
			}},
		"session, asked again": {"/session",
			`{"order_id":"B","id":"ordeh_B","status":"NEW","payment_links":{"web":"https://pay.example/B"},"order_expiry":"2030-01-01T00:00:00Z","sdk_payload":{"payload":{}}}`,
			`{"order_id":"A","id":"ordeh_A","status":"NEW","sdk_payload":{"payload":{}}}`,
			`{"order_id":"A","id":"ordeh_A","status":"NEW","amount":"100.00","customer_id":"customer_id"}`,
			func(c *checkout.Client) (string, time.Time, error) {
				s, err := c.CreateSession(context.Background(), sessionReq)
				if err != nil {
					return "", time.Time{}, err
				}
				require.True(t, s.Replayed)
				return s.PaymentLinks.Web, s.OrderExpiry.Time, nil
			}},
	} {
		t.Run(name, func(t *testing.T) {
			read := answer(400, `{"status":"NOT_FOUND","status_id":40}`)
			if tc.read != "" {
				read = answer(200, tc.read)
			}
			_, srv := newScripted(t, map[string][]func(http.ResponseWriter){
				"POST " + tc.path: {answer(200, tc.first), answer(200, tc.second)},
				"GET /orders/A":   {read},
			})
			c, err := checkout.NewClient("m", "k", checkout.WithBaseURL(srv.URL), checkout.WithRetry(fastRetry))
			require.NoError(t, err)
			web, expiry, err := tc.call(c)
			require.NoError(t, err)
			require.Empty(t, web, "order B's payment link")
			require.True(t, expiry.IsZero(), "order B's expiry")
		})
	}
}

// A settle read compares only what the write set: a session that names
// its order but no amount finds its order, not a conflict on "amount".
func TestSettleComparesOnlyWhatWasSet(t *testing.T) {
	_, srv := newScripted(t, map[string][]func(http.ResponseWriter){
		"POST /session": {answer(502, ``), answer(200, `{"order_id":"A","status":"NEW","sdk_payload":{}}`)},
		"GET /orders/A": {answer(200, `{"order_id":"A","status":"NEW","amount":"1.00","customer_id":"c"}`)},
	})
	c, err := checkout.NewClient("m", "k", checkout.WithBaseURL(srv.URL), checkout.WithRetry(fastRetry))
	require.NoError(t, err)
	s, err := c.CreateSession(context.Background(), &checkout.SessionRequest{OrderID: "A", CustomerID: "c",
		PaymentPageClientID: "p", Action: checkout.PaymentManagement})
	require.NoError(t, err)
	require.True(t, s.Replayed)
}

// A write whose first send got a 504 may still take effect, whatever the
// settle read found then: a later send that fails before sending keeps
// MaybeDelivered.
func TestMaybeDeliveredSticksAfterSettle(t *testing.T) {
	_, srv := newScripted(t, map[string][]func(http.ResponseWriter){
		"POST /orders":  {answer(504, ``)},
		"GET /orders/A": {answer(400, `{"status":"NOT_FOUND","status_id":40}`)},
	})
	refuse := &refuseAfter{after: 1}
	c, err := checkout.NewClient("m", "k", checkout.WithBaseURL(srv.URL), checkout.WithHTTPClient(&http.Client{Transport: refuse}),
		checkout.WithRetry(fastRetry))
	require.NoError(t, err)
	_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "A", Amount: "10.00"})
	var te *checkout.TransportError
	require.ErrorAs(t, err, &te)
	require.True(t, te.MaybeDelivered, "the 504'd send may still take effect")
}

// refuseAfter dials nothing for the POSTs past the first after, as a
// refused connection: a typed dial error, before anything is sent.
type refuseAfter struct {
	after int32
	posts atomic.Int32
}

func (r *refuseAfter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && r.posts.Add(1) > r.after {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	return http.DefaultTransport.RoundTrip(req)
}
