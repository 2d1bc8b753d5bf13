package checkouttest_test

import (
	"testing"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/stretchr/testify/require"
)

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

// OrderStatus.Refunded says the whole order was refunded: a partial refund
// leaves it false, the refund of the rest makes it true, in the Basic and
// the JWE+JWS mode alike (issue 40).
func TestRefundedOnlyWhenWhole(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	keys := s.JWE()
	basicClient := newClient(t, s)
	jweClient, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL),
		checkout.WithJWE(keys.KeyID, keys.MerchantKey, keys.ServiceKey))
	require.NoError(t, err)
	for name, c := range map[string]*checkout.Client{"basic": basicClient, "jwe": jweClient} {
		t.Run(name, func(t *testing.T) {
			ctx := ctxT(t)
			id := "ord_part_" + name
			createOrder(t, basicClient, id, "500.00")
			require.NoError(t, s.Pay(id))
			st, err := c.Refund(ctx, id, &checkout.RefundRequest{UniqueRequestID: id + "_1", Amount: "100.00"})
			require.NoError(t, err)
			require.False(t, bool(st.Refunded), "100 of 500 refunded")
			require.Equal(t, "100.00", string(st.AmountRefunded))
			st, err = c.GetOrder(ctx, id)
			require.NoError(t, err)
			require.False(t, bool(st.Refunded))

			st, err = c.Refund(ctx, id, &checkout.RefundRequest{UniqueRequestID: id + "_2"})
			require.NoError(t, err)
			require.True(t, bool(st.Refunded), "the rest refunded: the whole order")
			require.Equal(t, "500.00", string(st.AmountRefunded))
		})
	}
}
