package checkout

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/payorch/checkout-go/internal/conformance"
)

// UpdateOrder posts the form to /orders/{order_id} with the version header
// and reads the reply as the order's status, as the service publishes it.
func TestUpdateOrderGock(t *testing.T) {
	// The published reply, about an order id that needs escaping in the
	// path (the client refuses a reply about another order).
	sample := bytes.ReplaceAll(conformance.Files(t, "orders", "order_update_response.json")[0].Data,
		[]byte(`"JPAYNEW035"`), []byte(`"JPAYNEW/035"`))
	c := newGockClient(t, gockBase, WithAPIVersion("2024-02-01"))
	gock.New(gockBase).Post("^/orders/").
		AddMatcher(func(r *http.Request, _ *gock.Request) (bool, error) {
			return r.URL.EscapedPath() == "/orders/JPAYNEW%2F035" && r.URL.RawQuery == "", nil
		}).
		AddMatcher(exactHeaders(gockHeaders("application/x-www-form-urlencoded", map[string]string{"Version": "2024-02-01"}))).
		BodyString("^" + regexpQuote("amount=90&shipping_address_city=Pune&shipping_address_postal_code=411001&udf1=gift") + "$").
		Reply(200).BodyString(string(sample))
	st, err := c.UpdateOrder(context.Background(), "JPAYNEW/035", &UpdateOrderRequest{
		Amount:          "90",
		ShippingAddress: &Address{City: "Pune", PostalCode: "411001"},
		Extra:           map[string]string{"udf1": "gift"},
	})
	require.NoError(t, err)
	require.Equal(t, "JPAYNEW/035", st.OrderID)
	require.Equal(t, "ordeh_4b9501d714624eretry677i", st.ID)
	require.EqualValues(t, "NEW", st.Status)
	require.EqualValues(t, 10, st.StatusID)
	require.Equal(t, Amount("90.00"), st.Amount)
	require.Equal(t, Amount("3.00"), st.EffectiveAmount)
	require.Equal(t, "cst_wiqou3224", st.CustomerID)
	require.Equal(t, "INR", st.Currency)
	require.False(t, bool(st.Refunded))
	require.Equal(t, time.Date(2021, 9, 10, 9, 24, 6, 0, time.UTC), st.DateCreated.Time)
	require.Equal(t, "https://api.juspay.in/merchant/pay/ordeh_4b9501d7146243ac8a9d9c4a42ed7b59", st.PaymentLinks.Web)
	require.Equal(t, string(sample), string(st.Raw))
}

func TestUpdateOrderValidationAndRetries(t *testing.T) {
	srv := newRecorder(t, reply{status: 502, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for _, tt := range []struct {
		id    string
		req   *UpdateOrderRequest
		paths []string
	}{
		{"o1", &UpdateOrderRequest{Amount: "1.005"}, []string{"amount"}},
		{"o1", &UpdateOrderRequest{Amount: AmountFromMinor(-100)}, []string{"amount"}},
		{"o1", &UpdateOrderRequest{BillingAddress: &Address{City: "\xff"}, ShippingAddress: &Address{State: "\xfe"}},
			[]string{"billing_address_city", "shipping_address_state"}},
		{"o1", &UpdateOrderRequest{Amount: "5.00", BillingAddress: &Address{City: "Pune"},
			Extra: map[string]string{"amount": "5", "billing_address_city": "x", "billing_address_state": "ok", "udf1": "ok"}},
			[]string{"amount", "billing_address_city"}},
		{"", &UpdateOrderRequest{Amount: "1"}, []string{"order_id"}},
		{"..", nil, []string{"order_id", ""}},
	} {
		_, err := c.UpdateOrder(ctx, tt.id, tt.req)
		requireProblemPaths(t, err, tt.paths)
		require.ErrorContains(t, err, "checkout: update order: invalid request")
	}
	require.Zero(t, srv.count.Load(), "nothing is sent when validation fails")

	_, err := c.UpdateOrder(ctx, "o1", &UpdateOrderRequest{Amount: "1"})
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 1, srv.count.Load(), "a write is not resent after it may have reached the service")
	require.Equal(t, "amount=1", string(srv.last(t).Body))

}
