package checkouttest_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// The official PHP and Python SDKs call the older order paths: the fake
// answers them with the same orders, the same replies and the same auth
// as the documented ones.
func TestOlderOrderPaths(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	form := func(h http.Header, path string, f url.Values) reply {
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		return send(t, http.MethodPost, s.URL+path, h, []byte(f.Encode())) // no version header, as those SDKs send
	}
	for _, r := range []reply{
		form(http.Header{}, "/order/create", orderForm("ord_old")),
		send(t, http.MethodGet, s.URL+"/order/status?order_id=ord_old", nil, nil),
		form(http.Header{"X-Merchantid": {merchantID}, "Authorization": {basic("wrong:")}}, "/order/refund", url.Values{"order_id": {"ord_old"}}),
	} {
		require.Equal(t, 401, r.status, "%s", r.body)
	}

	created := form(authHeaders(), "/order/create", orderForm("ord_old"))
	require.Equal(t, 200, created.status, "%s", created.body)
	require.Equal(t, "CREATED", created.json["status"])
	require.NotEmpty(t, created.json["payment_links"])
	require.Equal(t, created.json["id"], getOrder(t, s, "ord_old").json["id"], "one order for both paths")

	// The same order_id again updates the order, where POST /orders refuses.
	f := orderForm("ord_old")
	f.Set("amount", "30.00")
	f.Set("udf2", "gift")
	updated := form(authHeaders(), "/order/create", f)
	require.Equal(t, 200, updated.status, "%s", updated.body)
	require.Equal(t, created.json["id"], updated.json["id"])
	require.EqualValues(t, 30, updated.json["amount"])
	require.Equal(t, 400, postOrder(t, s, orderForm("ord_old")).status, "the documented path still refuses another amount")

	status := send(t, http.MethodGet, s.URL+"/order/status?order_id=ord_old", authHeaders(), nil)
	require.Equal(t, 200, status.status)
	require.JSONEq(t, string(getOrder(t, s, "ord_old").body), string(status.body))
	require.Equal(t, "gift", status.json["udf2"])

	require.NoError(t, s.Pay("ord_old"))
	refund := form(authHeaders(), "/order/refund", url.Values{"order_id": {"ord_old"}, "unique_request_id": {"rf_old"}, "amount": {"5.00"}})
	require.Equal(t, 200, refund.status, "%s", refund.body)
	require.Equal(t, "rf_old", refund.json["refunds"].([]any)[0].(map[string]any)["unique_request_id"])
	o, err := s.Order("ord_old")
	require.NoError(t, err)
	require.Equal(t, "5.00", o.AmountRefunded)
	f.Set("amount", "31.00")
	require.Equal(t, 400, form(authHeaders(), "/order/create", f).status, "a charged order keeps its amount")

	for _, r := range []reply{
		send(t, http.MethodGet, s.URL+"/order/status", authHeaders(), nil),
		form(authHeaders(), "/order/refund", url.Values{"unique_request_id": {"rf_2"}, "amount": {"1.00"}}),
	} {
		require.Equal(t, 400, r.status)
		require.Equal(t, []string{"order_id"}, r.fieldNames())
	}
	missing := send(t, http.MethodGet, s.URL+"/order/status?order_id=ord_none", authHeaders(), nil)
	require.Equal(t, "NOT_FOUND", missing.json["status"])
	require.Equal(t, 405, send(t, http.MethodPost, s.URL+"/order/status", authHeaders(), nil).status)
}

func TestUpdateOrderThroughTheClient(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c, ctx := newClient(t, s), ctxT(t)
	createOrder(t, c, "ord_up", "100.00")

	st, err := c.UpdateOrder(ctx, "ord_up", &checkout.UpdateOrderRequest{
		Amount: "90", Extra: map[string]string{"udf1": "gift", "udf10": "wrap"},
		BillingAddress: &checkout.Address{City: "Pune"},
	})
	require.NoError(t, err)
	require.Equal(t, "ord_up", st.OrderID)
	require.Equal(t, checkout.StatusCreated, st.Status)
	require.Equal(t, checkout.Amount("90.00"), st.Amount)
	require.Equal(t, "gift", st.UDF1)
	require.Equal(t, "wrap", st.UDF10)
	o, err := s.Order("ord_up")
	require.NoError(t, err)
	require.Equal(t, "90.00", o.Amount, "the fake holds the new amount")
	got, err := c.GetOrder(ctx, "ord_up")
	require.NoError(t, err)
	require.Equal(t, checkout.Amount("90.00"), got.Amount)

	_, err = c.UpdateOrder(ctx, "ord_nope", &checkout.UpdateOrderRequest{Amount: "1.00"})
	require.ErrorIs(t, err, checkout.ErrNotFound)
	require.Equal(t, "ord_nope", apiError(t, err).OrderID)

	require.NoError(t, s.Pay("ord_up"))
	_, err = c.UpdateOrder(ctx, "ord_up", &checkout.UpdateOrderRequest{Amount: "1.00"})
	require.ErrorIs(t, err, checkout.ErrInvalidRequest, "a charged order is not changed")
	require.Equal(t, 400, apiError(t, err).HTTPStatus)
}

// The order-not-found reply names the order and carries status_id 40, as
// the service's published reply does; the client reads both.
func TestOrderNotFoundThroughTheClient(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c := newClient(t, s)
	_, err := c.GetOrder(ctxT(t), "ord_404")
	require.ErrorIs(t, err, checkout.ErrNotFound)
	e := apiError(t, err)
	require.Equal(t, 400, e.HTTPStatus)
	require.Equal(t, "NOT_FOUND", e.Status)
	require.EqualValues(t, 40, e.StatusID)
	require.Equal(t, "ord_404", e.OrderID)
	require.False(t, errors.Is(err, checkout.ErrInvalidRequest))

	r := getOrder(t, s, "ord_404")
	require.Equal(t, 40.0, r.json["status_id"])
	require.Equal(t, "ord_404", r.json["order_id"], "the body names the order, not only the client")
}

// The fake serves the fields the service's replies carry: the order-create
// reply beyond its ids, a session's UPI deep link and order expiry, and it
// keeps what typed request fields (currency, udf1…udf10, a session's
// gateway metadata) sent, as the order status shows.
func TestNewReplyFieldsThroughTheClient(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c, ctx := newClient(t, s), ctxT(t)
	o, err := c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_new", Amount: "1499.00", Currency: "INR",
		CustomerID: "cust_1", CustomerEmail: "a@example.com", CustomerPhone: "9876543210", ProductID: "sku-5",
		ReturnURL: "https://shop.example/return", UDFs: checkout.UDFs{UDF1: "gift", UDF10: "wrap"}})
	require.NoError(t, err)
	require.Equal(t, checkout.Amount("1499.00"), o.Amount)
	require.Equal(t, checkout.Amount("0.00"), o.AmountRefunded)
	require.False(t, bool(o.Refunded))
	require.Equal(t, "INR", o.Currency)
	require.Equal(t, "cust_1", o.CustomerID)
	require.Equal(t, "a@example.com", o.CustomerEmail)
	require.Equal(t, "9876543210", o.CustomerPhone)
	require.Equal(t, "sku-5", o.ProductID)
	require.Equal(t, "https://shop.example/return", o.ReturnURL)
	require.Equal(t, merchantID, o.MerchantID)
	require.Equal(t, "gift", o.UDF1)
	require.Equal(t, "wrap", o.UDF10)
	require.False(t, o.DateCreated.IsZero())
	require.True(t, o.OrderExpiry.After(o.DateCreated.Time))

	sess, err := c.CreateSession(ctx, &checkout.SessionRequest{OrderID: "ord_sess", Amount: "10.00", CustomerID: "cust_1",
		CustomerPhone: "9876543210", PaymentPageClientID: "shop", Action: checkout.PaymentPage, Currency: "INR",
		UDFs: checkout.UDFs{UDF3: "campaign"}, UPIDeepLinks: true,
		GatewayMetadata: checkout.GatewayMetadataList{{Gateway: "AMAZONPAY", Key: "gateway_reference_id", Value: "amzn_1"}}})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(sess.PaymentLinks.DeepLink, "upi://pay?"), sess.PaymentLinks.DeepLink)
	require.Contains(t, sess.PaymentLinks.DeepLink, "am=10.00")
	require.False(t, sess.OrderExpiry.IsZero())
	st, err := c.GetOrder(ctx, "ord_sess")
	require.NoError(t, err)
	require.Equal(t, "campaign", st.UDF3)
	require.Equal(t, "INR", st.Currency)
	require.Equal(t, "amzn_1", st.Metadata["AMAZONPAY:gateway_reference_id"], "%v", st.Metadata)
	require.Empty(t, st.GatewayReferenceID, "another gateway's entry is not the order's reference")
}

// The order status carries order_expiry, the order's creation plus
// Config.OrderExpiry, so AwaitFinal stops with ErrOrderExpired on an order
// left unpaid past it (issue 40).
func TestOrderExpiry(t *testing.T) {
	created := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	clock := &fakeClock{}
	clock.Set(created)
	s := newServer(t, checkouttest.Config{Now: clock.Now, OrderExpiry: 10 * time.Minute})
	c := newClient(t, s)
	createOrder(t, c, "ord_exp", "10.00")

	st, err := c.GetOrder(ctxT(t), "ord_exp")
	require.NoError(t, err)
	require.Equal(t, created.Add(10*time.Minute), st.OrderExpiry.Time)
	o, err := s.Order("ord_exp")
	require.NoError(t, err)
	require.Equal(t, st.OrderExpiry.Time, o.Expiry)

	_, err = c.AwaitFinal(ctxT(t), "ord_exp")
	require.ErrorIs(t, err, checkout.ErrOrderExpired, "its expiry passed 50 minutes ago while it was unpaid")
	var ae *checkout.AwaitError
	require.ErrorAs(t, err, &ae)
	require.NotNil(t, ae.Last)
	require.Equal(t, checkouttest.StatusCreated, string(ae.Last.Status))

	require.NoError(t, s.Pay("ord_exp"))
	st, err = c.AwaitFinal(ctxT(t), "ord_exp")
	require.NoError(t, err, "a final status is returned whatever the expiry")
	require.True(t, st.IsPaid())

	require.ErrorContains(t, checkouttest.Config{MerchantID: "m", APIKey: "k", OrderExpiry: -time.Second}.Validate(), "OrderExpiry")
}
