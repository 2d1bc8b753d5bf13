package e2e_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
)

func TestSessionPerAction(t *testing.T) {
	t.Parallel()
	s := newFake(t, checkouttest.Config{})
	c := newClient(t, s)
	filter := paymentfilter.New().
		HideUPIHandles("@ybl").HideUPIApps("com.phonepe.app").
		HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"}).
		EMI(emi.New().RemoveTenures(emi.NoCost, emi.Credit, "SVC_ICICI", emi.Months(9, 12)))
	summary := productsummary.New().Line(productsummary.Text{Text: "Total", FontType: productsummary.Bold}, productsummary.Space{Weight: 1}, productsummary.Text{Text: "₹1,200.50"})

	for _, action := range []checkout.Action{checkout.PaymentPage, checkout.QuickPay, checkout.PaymentManagement} {
		t.Run(string(action), func(t *testing.T) {
			req := session("ord_sess_"+string(action), action)
			req.PaymentFilter = filter
			req.EMI = emi.ShowWithoutCards
			req.ProductSummary = summary
			req.WebhookURL = "https://shop.example/hooks"
			sess, err := c.CreateSession(ctxT(t), req)
			require.NoError(t, err)

			var payload struct {
				RequestID string                     `json:"requestId"`
				Service   string                     `json:"service"`
				Payload   map[string]json.RawMessage `json:"payload"`
			}
			require.NoError(t, json.Unmarshal(sess.SDKPayload, &payload))
			id, err := uuid.Parse(payload.RequestID)
			require.NoError(t, err)
			require.Equal(t, uuid.Version(4), id.Version())
			require.Equal(t, checkouttest.SDKService, payload.Service)
			require.JSONEq(t, `"`+string(action)+`"`, string(payload.Payload["action"]))
			require.JSONEq(t, `"ShowEMIWithoutCards"`, string(payload.Payload["sdkUdf"]))
			want, err := json.Marshal(filter)
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(payload.Payload["paymentFilter"]), "the filter reaches the SDK as sent")

			if action == checkout.PaymentManagement {
				require.Empty(t, sess.OrderID)
				require.Empty(t, sess.ID)
				return
			}
			require.Equal(t, "NEW", sess.Status)
			require.Equal(t, req.OrderID, sess.OrderID)
			require.Equal(t, s.URL+"/orders/"+sess.ID+"/payment-page", sess.PaymentLinks.Web)
			o, err := s.Order(req.OrderID)
			require.NoError(t, err, "a %s session creates the order", action)
			require.Equal(t, "1200.50", o.Amount)
			require.Equal(t, "https://shop.example/hooks", o.WebhookURL)
		})
	}
}

func TestOrderLinksStatusAndRefund(t *testing.T) {
	t.Parallel()
	s := newFake(t, checkouttest.Config{})
	c := newClient(t, s)
	ctx := ctxT(t)
	req := order("ord_links")
	req.ClientAuthToken = true
	req.BillingAddress = &checkout.Address{City: "Pune", CountryCodeISO: "IND"}
	req.GatewayMetadata = []checkout.GatewayMetadata{{Gateway: "PAYU", Key: "offer_key", Value: "diwali"}}
	req.CollectionLinks = &checkout.CollectionLinks{Links: []checkout.CollectionLink{
		{Method: checkout.CollectionPay, Expiry: 30 * time.Minute}, {Method: checkout.CollectionQR, Expiry: 5 * time.Minute},
	}}
	before := time.Now().Truncate(time.Second)
	o, err := c.CreateOrder(ctx, req)
	require.NoError(t, err)
	require.Equal(t, checkout.StatusCreated, o.Status)
	require.EqualValues(t, 1, o.StatusID)
	require.NotEmpty(t, o.ClientAuthToken)
	fake, err := s.Order("ord_links")
	require.NoError(t, err)
	require.Equal(t, fake.CollectionLinks["QR"].URL, o.CollectionLinks.QR)
	require.Equal(t, fake.CollectionLinks["INTENT"].URL, o.CollectionLinks.Intent)
	require.WithinDuration(t, before.Add(5*time.Minute), fake.CollectionLinks["QR"].ExpiresAt, 2*time.Second)
	require.WithinDuration(t, before.Add(30*time.Minute), fake.CollectionLinks["INTENT"].ExpiresAt, 2*time.Second)
	require.Equal(t, "diwali", fake.Metadata["PAYU:offer_key"])
	form, err := s.Requests()[0].Form()
	require.NoError(t, err)
	require.Equal(t, "Pune", form.Get("billing_address_city"))
	require.Equal(t, checkout.DefaultAPIVersion, s.Requests()[0].Header.Get("version"))

	st, err := c.GetOrder(ctx, "ord_links")
	require.NoError(t, err)
	require.Equal(t, checkout.StatusCreated, st.Status)
	require.Equal(t, checkout.Amount("1200.50"), st.Amount)

	require.NoError(t, s.PayWith("ord_links", checkouttest.Payment{MethodType: "UPI"}))
	st, err = c.GetOrder(ctx, "ord_links")
	require.NoError(t, err)
	require.Equal(t, checkout.StatusCharged, st.Status)
	require.EqualValues(t, 21, st.StatusID)
	require.Equal(t, "UPI", st.PaymentMethodType)
	require.NotEmpty(t, st.TxnID)

	st, err = c.Refund(ctx, "ord_links", &checkout.RefundRequest{UniqueRequestID: "rf_1", Amount: checkout.AmountFromMinor(20050)})
	require.NoError(t, err)
	require.False(t, bool(st.Refunded), "200.50 of 1200.50 refunded: not the whole order")
	require.Equal(t, checkout.Amount("200.50"), st.AmountRefunded)
	require.Len(t, st.Refunds, 1)
	require.Equal(t, checkout.RefundPending, st.Refunds[0].Status)
	require.Equal(t, "rf_1", st.Refunds[0].UniqueRequestID)
	require.NoError(t, s.RefundCompleted("ord_links", "rf_1"))
	st, err = c.GetOrder(ctx, "ord_links")
	require.NoError(t, err)
	require.Equal(t, checkout.RefundSuccess, st.Refunds[0].Status)

	// More than what is left is refused by the service: a typed error
	// naming the field.
	_, err = c.Refund(ctx, "ord_links", &checkout.RefundRequest{UniqueRequestID: "rf_2", Amount: checkout.AmountFromMinor(100001)})
	var apiErr *checkout.APIError
	require.ErrorAs(t, err, &apiErr)
	require.ErrorIs(t, err, checkout.ErrInvalidRequest)
	require.Equal(t, 400, apiErr.HTTPStatus)
	require.Equal(t, "refund", apiErr.Operation)
	require.NotZero(t, apiErr.Info)
	require.Equal(t, "amount", apiErr.Info.Fields[0].FieldName)
}

func TestAPIErrors(t *testing.T) {
	t.Parallel()
	s := newFake(t, checkouttest.Config{})
	ctx := ctxT(t)
	c := newClient(t, s)

	_, err := c.GetOrder(ctx, "ord_missing")
	var apiErr *checkout.APIError
	require.ErrorAs(t, err, &apiErr)
	require.ErrorIs(t, err, checkout.ErrNotFound)
	require.Equal(t, 400, apiErr.HTTPStatus, "the service reports an unknown order as 400 NOT_FOUND")
	require.Equal(t, "NOT_FOUND", apiErr.Status)

	bad, err := checkout.NewClient(merchantID, "wrong_key", checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	_, err = bad.CreateSession(ctx, session("ord_401", checkout.PaymentPage))
	require.ErrorIs(t, err, checkout.ErrUnauthorized)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "access_denied", apiErr.ErrorCode)
	require.Equal(t, "Unauthorized.", apiErr.UserMessage)
	require.NotContains(t, err.Error(), "wrong_key")

	other, err := checkout.NewClient("someone_else", apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	_, err = other.CreateOrder(ctx, order("ord_401"))
	require.ErrorIs(t, err, checkout.ErrUnauthorized)

	_, err = c.Refund(ctx, "ord_missing", &checkout.RefundRequest{UniqueRequestID: "rf", Amount: "1.00"})
	require.ErrorIs(t, err, checkout.ErrNotFound)

	require.NoError(t, s.InjectFault(checkouttest.Fault{Path: "/session", Status: 429, RetryAfter: "0", Times: 3}))
	sent := s.Count("POST", "/session")
	_, err = c.CreateSession(ctx, session("ord_429", checkout.PaymentPage))
	require.ErrorIs(t, err, checkout.ErrRateLimited)
	require.Equal(t, 3, s.Count("POST", "/session")-sent, "429 is retried MaxRetries times")

	// A repeated create with another amount is refused with the field.
	_, err = c.CreateOrder(ctx, order("ord_twice"))
	require.NoError(t, err)
	again := order("ord_twice")
	again.Amount = "1.00"
	_, err = c.CreateOrder(ctx, again)
	require.ErrorIs(t, err, checkout.ErrInvalidRequest)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "amount", apiErr.Info.Fields[0].FieldName)
}

// TestValidationSendsNothing: what the client refuses never reaches the
// (strict) fake, and the paths match the fake's own field names.
func TestValidationSendsNothing(t *testing.T) {
	t.Parallel()
	s := newFake(t, checkouttest.Config{})
	c := newClient(t, s)
	ctx := ctxT(t)

	threePlaces := session("ord_3", checkout.PaymentPage)
	threePlaces.Amount = "10.005"
	badFilter := &paymentfilter.Filter{AllowDefaultOptions: true, Options: []paymentfilter.Option{
		{PaymentMethodType: "card", Enable: false},
	}}
	withFilter := session("ord_f", checkout.PaymentPage)
	withFilter.PaymentFilter = badFilter
	badUdf := session("ord_u", checkout.PaymentPage)
	badUdf.EMI = "ShowEMI"
	noAmount := order("ord_n")
	noAmount.Amount = ""

	cases := []struct {
		name string
		call func() error
		path string
	}{
		{"amount with three places", func() error { _, err := c.CreateSession(ctx, threePlaces); return err }, "amount"},
		{"mis-cased method type", func() error { _, err := c.CreateSession(ctx, withFilter); return err }, "payment_filter.options[0].paymentMethodType"},
		{"mis-cased sdk_udf", func() error { _, err := c.CreateSession(ctx, badUdf); return err }, "sdk_udf"},
		{"order without amount", func() error { _, err := c.CreateOrder(ctx, noAmount); return err }, "amount"},
		{"refund without id", func() error {
			_, err := c.Refund(ctx, "ord_x", &checkout.RefundRequest{Amount: "1.00"})
			return err
		}, "unique_request_id"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var ve *checkout.ValidationError
			require.True(t, errors.As(err, &ve), "%v", err)
			require.True(t, ve.Has(tt.path), "%v", ve.Problems)
		})
	}
	require.Empty(t, s.Requests(), "nothing was sent")
}
