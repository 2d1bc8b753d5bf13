package checkouttest_test

import (
	"strings"
	"testing"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/stretchr/testify/require"
)

func TestCustomersThroughTheClient(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: now}
	s := newServer(t, checkouttest.Config{Now: clock.Now})
	c, ctx := newClient(t, s), ctxT(t)

	created, err := c.CreateCustomer(ctx, &checkout.CustomerRequest{
		ObjectReferenceID: "cust_0001",
		MobileNumber:      "9876543210", EmailAddress: "asha@example.com", FirstName: "Asha", MobileCountryCode: "91",
		ClientAuthToken: true,
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

	_, err = c.CreateCustomer(ctx, &checkout.CustomerRequest{ObjectReferenceID: "cust_0001",
		MobileNumber: "1"})
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
	updated, err := c.UpdateCustomer(ctx, created.ID, &checkout.UpdateCustomerRequest{LastName: "Rao", EmailAddress: "asha@rao.example"})
	require.NoError(t, err)
	require.Equal(t, "Rao", updated.LastName)
	require.Equal(t, "asha@rao.example", updated.EmailAddress)
	require.Equal(t, "Asha", updated.FirstName, "details not sent are kept")
	require.Equal(t, now, updated.DateCreated.Time)
	require.Equal(t, now.Add(time.Hour), updated.LastUpdated.Time)

	_, err = c.GetCustomer(ctx, "cst_unknown", nil)
	require.ErrorIs(t, err, checkout.ErrNotFound)
	require.Equal(t, "object_not_found", apiError(t, err).ErrorCode)
	_, err = c.UpdateCustomer(ctx, "cst_unknown", &checkout.UpdateCustomerRequest{LastName: "x"})
	require.ErrorIs(t, err, checkout.ErrNotFound)
}
