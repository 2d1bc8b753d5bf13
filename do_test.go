package checkout_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// Do reads an endpoint the SDK does not model, with the client's auth,
// retries and errors; here the fake's order read into a struct of one's
// own.
func ExampleClient_Do() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	if _, err := c.CreateSession(ctx, session("ord_7")); err != nil {
		fmt.Println(err)
		return
	}
	var st struct {
		OrderID string `json:"order_id"`
		Status  string `json:"status"`
	}
	err = c.Do(ctx, "GET", "/orders/ord_7", nil, &st, checkout.WithAPIVersion("2023-06-30"))
	fmt.Println(st.OrderID, st.Status, err)
	// Output:
	// ord_7 NEW <nil>
}

// Do calls the fake's endpoints with the client's auth and rules, in both
// modes: a GET read, a JSON POST, a form POST, and a sealed /v4 call.
func TestDoAgainstFake(t *testing.T) {
	for _, jwe := range []bool{false, true} {
		t.Run(fmt.Sprint("jwe=", jwe), func(t *testing.T) {
			o := &recObserver{}
			fake, c := fakeClient(t, jwe, checkout.WithObserver(o))
			ctx := context.Background()
			var m checkout.ResponseMeta
			var sess map[string]any
			require.NoError(t, c.Do(ctx, "POST", "/session", session("ord_9"), &sess, checkout.WithResponseMeta(&m)))
			require.Equal(t, "ord_9", sess["order_id"])
			require.Equal(t, 200, m.HTTPStatus)

			var st struct {
				OrderID string `json:"order_id"`
				Status  string `json:"status"`
				Amount  any    `json:"amount"`
			}
			require.NoError(t, c.Do(ctx, "GET", "/orders/ord_9", nil, &st, checkout.WithAPIVersion("2023-06-30")))
			require.Equal(t, "ord_9", st.OrderID)

			form := url.Values{"order_id": {"ord_10"}, "amount": {"10.00"}, "customer_id": {"c1"}}
			var order map[string]any
			require.NoError(t, c.Do(ctx, "POST", "/orders", form, &order, checkout.WithAPIVersion("2023-06-30")))
			require.Equal(t, "ord_10", order["order_id"])

			err := c.Do(ctx, "GET", "/orders/nope", nil, &st)
			var ae *checkout.APIError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, 400, ae.HTTPStatus)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: do: "), err.Error())

			if jwe {
				var sealed struct {
					OrderID string `json:"order_id"`
				}
				require.NoError(t, c.Do(ctx, "POST", "/v4/order-status", map[string]string{"order_id": "ord_9"}, &sealed))
				require.Equal(t, "ord_9", sealed.OrderID)
				reqs := fake.Requests()
				last := reqs[len(reqs)-1]
				require.Equal(t, "/v4/order-status", last.Path)
				require.Empty(t, last.Header.Get("Authorization"), "the signature authenticates a sealed call")
			}
			var routes []string
			for _, op := range o.ops {
				require.Equal(t, "Do", op.Name)
				require.NotContains(t, op.Route, "ord_", "never an id in a route")
				routes = append(routes, op.Route)
			}
			require.Contains(t, routes, "/orders/{id}", "id-like segments are named {id}")
			require.Contains(t, routes, "/session")
		})
	}
}

// Do refuses a method or path that leaves the base URL, before sending.
func TestDoRefusesPaths(t *testing.T) {
	fake, c := fakeClient(t, false)
	for _, p := range []string{"", "orders", "//evil.example/x", "https://evil.example/x", "/a/../b", "/a/%2e%2e/b",
		"/a/%2F/b", "/a\\b", "/a b", "/./x"} {
		err := c.Do(context.Background(), "GET", p, nil, nil)
		require.ErrorIs(t, err, checkout.ErrInvalidOption, p)
	}
	require.ErrorIs(t, c.Do(context.Background(), "GE T", "/x", nil, nil), checkout.ErrInvalidOption)
	require.ErrorContains(t, c.Do(context.Background(), "POST", "/x", func() {}, nil), "checkout: do: ")
	require.Empty(t, fake.Requests())

	// An out that cannot hold the reply is refused before anything is
	// sent: a write must not take effect with its reply unreadable.
	var st struct{ Status string }
	var nilOut *struct{ Status string }
	for _, out := range []any{st, nilOut} {
		err := c.Do(context.Background(), "POST", "/orders", url.Values{"order_id": {"ord_do"}}, out)
		require.ErrorContains(t, err, "checkout: do: invalid option: out is not a non-nil pointer")
	}
	// A method is sent as given, so one not upper case is refused, never
	// changed; so is a query that is not one.
	require.ErrorContains(t, c.Do(context.Background(), "get", "/orders/x", nil, nil), `method "get" is not an upper-case token`)
	err := c.Do(context.Background(), "GET", "/orders?client_auth_token=tkn_SECRET&x=%zz", nil, nil)
	require.ErrorIs(t, err, checkout.ErrInvalidOption)
	require.NotContains(t, err.Error(), "tkn_SECRET", "the query is never quoted")
	require.Empty(t, fake.Requests())
}

// A write through Do is not retried after an ambiguous failure; a GET is.
func TestDoRetryRule(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(srv.URL),
		checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	require.NoError(t, err)
	require.ErrorIs(t, c.Do(context.Background(), "POST", "/x", map[string]int{"a": 1}, nil), checkout.ErrServer)
	require.EqualValues(t, 1, n.Load())
	require.ErrorIs(t, c.Do(context.Background(), "GET", "/x", nil, nil), checkout.ErrServer)
	require.EqualValues(t, 4, n.Load())
}

// In the JWE+JWS mode a /v4/ call through Do is a sealed POST, a write: a
// 500 to it is not retried; a method or query it cannot carry is refused
// before anything is sent, never changed or dropped.
func TestDoV4IsASealedWrite(t *testing.T) {
	fake, c := fakeClient(t, true, checkout.WithRetry(checkout.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	ctx := context.Background()
	for _, tc := range []struct{ method, path, want string }{
		{"GET", "/v4/order-status", "a /v4/ call is a sealed POST"},
		{"POST", "/v4/order-status?order_id=ord_1", "no query, no form"},
	} {
		err := c.Do(ctx, tc.method, tc.path, nil, nil)
		require.ErrorIs(t, err, checkout.ErrInvalidOption, tc.method)
		require.ErrorContains(t, err, tc.want)
	}
	require.ErrorContains(t, c.Do(ctx, "POST", "/v4/orders/o1/refunds", url.Values{"amount": {"1.00"}}, nil), "no query, no form")
	require.Empty(t, fake.Requests())

	require.NoError(t, fake.InjectFault(checkouttest.Fault{Method: "POST", Path: "/v4/orders/ord_1/refunds", Status: 500, Times: 5}))
	err := c.Do(ctx, "POST", "/v4/orders/ord_1/refunds", map[string]string{"unique_request_id": "r1"}, nil)
	require.ErrorIs(t, err, checkout.ErrServer)
	require.Len(t, fake.Requests(), 1, "a write is not retried after a 500")
}

// A Do call is named by its route in errors and the debug log: an email or
// an id in its path, or its query, is never written out.
func TestDoPathRedacted(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + closed.Addr().String()
	require.NoError(t, closed.Close()) // nothing listens there now
	var logs bytes.Buffer
	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(base),
		checkout.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		checkout.WithRetry(checkout.RetryPolicy{}))
	require.NoError(t, err)
	err = c.Do(context.Background(), "GET", "/customers/asha@example.com/cards?client_auth_token=tkn_SECRET", nil, nil)
	var te *checkout.TransportError
	require.ErrorAs(t, err, &te)
	require.Equal(t, "/customers/{id}/cards", te.Path)
	for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), logs.String()} {
		require.NotContains(t, s, "asha")
		require.NotContains(t, s, "tkn_SECRET")
	}
	require.Contains(t, logs.String(), `"path":"/customers/{id}/cards"`)

	err = c.Do(context.Background(), "GET", "/customers/asha@example.com", nil, nil, checkout.WithRouteTemplate("/customers/{customer_id}"))
	require.ErrorAs(t, err, &te)
	require.Equal(t, "/customers/{customer_id}", te.Path)
}

// Do refuses what it would otherwise send other than as given: another
// call's option, a body of a type it cannot tell JSON from (a string, a
// reader), a /v4/ call without a JSON body.
func TestDoRefusesWhatItCannotCarry(t *testing.T) {
	fake, c := fakeClient(t, true)
	ctx := context.Background()
	for name, err := range map[string]error{
		"poll option": c.Do(ctx, "GET", "/orders/x", nil, nil, checkout.WithPollIntervals(time.Second)),
		"reader":      c.Do(ctx, "POST", "/orders", strings.NewReader(`{"a":1}`), nil),
		"string":      c.Do(ctx, "POST", "/orders", `{"a":1}`, nil),
		"v4 no body":  c.Do(ctx, "POST", "/v4/order-status", nil, nil),
		"v4 not JSON": c.Do(ctx, "POST", "/v4/order-status", []byte("order_id=1"), nil),
		"bidi route":  c.Do(ctx, "GET", "/orders/x", nil, nil, checkout.WithRouteTemplate("/orders/\u202e{id}")),
		"route space": c.Do(ctx, "GET", "/orders/x", nil, nil, checkout.WithRouteTemplate("/orders/{id} x")),
		"no slash":    c.Do(ctx, "GET", "/orders/x", nil, nil, checkout.WithRouteTemplate("orders/{id}")),
	} {
		require.ErrorIs(t, err, checkout.ErrInvalidOption, name)
	}
	require.Empty(t, fake.Requests())
}
