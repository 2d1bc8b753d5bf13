package checkouttest_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

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
