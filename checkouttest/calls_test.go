package checkouttest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// The calls the fake serves besides sessions and orders, each through the
// real client, so that what the fake answers is what the client reads.

func newClient(t *testing.T, s *checkouttest.Server) *checkout.Client {
	t.Helper()
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func createOrder(t *testing.T, c *checkout.Client, orderID string, amount checkout.Amount) {
	t.Helper()
	_, err := c.CreateOrder(ctxT(t), &checkout.OrderRequest{OrderID: orderID, Amount: amount, CustomerID: "cust_1"})
	require.NoError(t, err)
}

func apiError(t *testing.T, err error) *checkout.APIError {
	t.Helper()
	var e *checkout.APIError
	require.ErrorAs(t, err, &e)
	return e
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

func TestCustomersThroughTheClient(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: now}
	s := newServer(t, checkouttest.Config{Now: clock.Now})
	c, ctx := newClient(t, s), ctxT(t)

	created, err := c.CreateCustomer(ctx, &checkout.CreateCustomerRequest{
		ObjectReferenceID: "cust_0001",
		CustomerDetails:   checkout.CustomerDetails{MobileNumber: "9876543210", EmailAddress: "asha@example.com", FirstName: "Asha", MobileCountryCode: "91"},
		ClientAuthToken:   true,
	})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(created.ID, "cst_"), created.ID)
	require.Equal(t, "customer", created.Object)
	require.Equal(t, "cust_0001", created.ObjectReferenceID)
	require.Equal(t, "9876543210", created.MobileNumber)
	require.Equal(t, "91", created.MobileCountryCode)
	require.Equal(t, "Asha", created.FirstName)
	require.Equal(t, now, created.DateCreated.Time)
	require.True(t, strings.HasPrefix(string(created.ClientAuthToken), "tkn_"))
	require.Equal(t, now.Add(15*time.Minute), created.ClientAuthTokenExpiry.Time)

	_, err = c.CreateCustomer(ctx, &checkout.CreateCustomerRequest{ObjectReferenceID: "cust_0001",
		CustomerDetails: checkout.CustomerDetails{MobileNumber: "1"}})
	require.Equal(t, "unique", apiError(t, err).ErrorCode, "an object_reference_id is taken once")

	byRef, err := c.GetCustomer(ctx, "cust_0001", nil)
	require.NoError(t, err)
	require.Equal(t, created.ID, byRef.ID)
	require.Empty(t, byRef.ClientAuthToken, "a token only when asked for")
	byID, err := c.GetCustomer(ctx, created.ID, &checkout.CustomerQuery{ClientAuthToken: true})
	require.NoError(t, err)
	require.Equal(t, "asha@example.com", byID.EmailAddress)
	require.NotEmpty(t, byID.ClientAuthToken)

	clock.Set(now.Add(time.Hour))
	updated, err := c.UpdateCustomer(ctx, created.ID, &checkout.CustomerDetails{LastName: "Rao", EmailAddress: "asha@rao.example"})
	require.NoError(t, err)
	require.Equal(t, "Rao", updated.LastName)
	require.Equal(t, "asha@rao.example", updated.EmailAddress)
	require.Equal(t, "Asha", updated.FirstName, "details not sent are kept")
	require.Equal(t, now, updated.DateCreated.Time)
	require.Equal(t, now.Add(time.Hour), updated.LastUpdated.Time)

	_, err = c.GetCustomer(ctx, "cst_unknown", nil)
	require.ErrorIs(t, err, checkout.ErrNotFound)
	require.Equal(t, "object_not_found", apiError(t, err).ErrorCode)
	_, err = c.UpdateCustomer(ctx, "cst_unknown", &checkout.CustomerDetails{LastName: "x"})
	require.ErrorIs(t, err, checkout.ErrNotFound)
}

func TestFullRefundThroughTheClient(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c, ctx := newClient(t, s), ctxT(t)
	createOrder(t, c, "ord_full", "120.50")
	require.NoError(t, s.Pay("ord_full"))

	_, err := c.Refund(ctx, "ord_full", &checkout.RefundRequest{UniqueRequestID: "rf_part", Amount: "20.50"})
	require.NoError(t, err)
	st, err := c.Refund(ctx, "ord_full", &checkout.RefundRequest{UniqueRequestID: "rf_rest"})
	require.NoError(t, err)
	require.Equal(t, checkout.Amount("120.50"), st.AmountRefunded)
	require.Len(t, st.Refunds, 2)
	require.Equal(t, checkout.Amount("100.00"), st.Refunds[1].Amount, "amount omitted refunds what is left")
	require.Equal(t, checkout.RefundStandard, st.Refunds[1].RefundType)

	_, err = c.Refund(ctx, "ord_full", &checkout.RefundRequest{UniqueRequestID: "rf_more"})
	e := apiError(t, err)
	require.Equal(t, 400, e.HTTPStatus, "nothing is left to refund")
	require.Equal(t, "amount", e.Info.Fields[0].FieldName)
}

func TestRefundTransactionThroughTheClient(t *testing.T) {
	s := newServer(t, checkouttest.Config{Gateways: []checkouttest.Gateway{{Name: "RAZORPAY", ID: 23, ReferenceID: "ref_rzp"}}})
	c, ctx := newClient(t, s), ctxT(t)
	_, err := c.CreateOrder(ctx, &checkout.OrderRequest{OrderID: "ord_txn", Amount: "50.00", GatewayReferenceID: "ref_rzp"})
	require.NoError(t, err)
	require.NoError(t, s.Pay("ord_txn"))
	st, err := c.GetOrder(ctx, "ord_txn")
	require.NoError(t, err)

	byTxn, err := c.RefundTransaction(ctx, &checkout.TransactionRefundRequest{UniqueRequestID: "rf_t1", TxnID: st.TxnID, Amount: "10.00"})
	require.NoError(t, err)
	require.Equal(t, "rf_t1", byTxn.UniqueRequestID)
	require.Equal(t, st.TxnID, byTxn.TxnID)
	require.Equal(t, "ord_txn", byTxn.OrderID)
	require.Equal(t, checkout.RefundPending, byTxn.Status)
	require.Equal(t, checkout.RefundStandard, byTxn.RefundType)
	require.Equal(t, checkout.Amount("10.00"), byTxn.Amount)
	require.Equal(t, "RAZORPAY", byTxn.Gateway)
	require.Equal(t, "API", byTxn.InitiatedBy)
	require.False(t, byTxn.Created.IsZero())

	instant, err := c.RefundTransaction(ctx, &checkout.TransactionRefundRequest{UniqueRequestID: "rf_t2", OrderID: "ord_txn",
		RefundType: checkout.RefundInstant, Amount: "5.00"})
	require.NoError(t, err)
	require.Equal(t, checkout.RefundInstant, instant.RefundType)
	require.Equal(t, st.TxnID, instant.TxnID)

	st, err = c.GetOrder(ctx, "ord_txn")
	require.NoError(t, err)
	require.Equal(t, checkout.Amount("15.00"), st.AmountRefunded)
	require.Len(t, st.Refunds, 2)
	require.Equal(t, checkout.RefundInstant, st.Refunds[1].RefundType)
	require.NoError(t, s.RefundCompleted("ord_txn", "rf_t2"), "a transaction refund completes like any refund")

	_, err = c.RefundTransaction(ctx, &checkout.TransactionRefundRequest{UniqueRequestID: "rf_t3", TxnID: "txn_unknown", Amount: "1.00"})
	require.Equal(t, "No txn Found", apiError(t, err).ErrorCode)
	_, err = c.RefundTransaction(ctx, &checkout.TransactionRefundRequest{UniqueRequestID: "rf_t3", OrderID: "ord_unknown", Amount: "1.00"})
	require.ErrorIs(t, err, checkout.ErrNotFound)
	require.Equal(t, "ord_unknown", apiError(t, err).OrderID)
	_, err = c.RefundTransaction(ctx, &checkout.TransactionRefundRequest{UniqueRequestID: "rf_t1", TxnID: st.TxnID, Amount: "1.00"})
	require.Equal(t, "unique_request_id", apiError(t, err).Info.Fields[0].FieldName, "a unique request id refunds once")
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
