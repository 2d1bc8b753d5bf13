package reconcile_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/reconcile"
	"github.com/payorch/checkout-go/reconcile/reconciletest"
)

func TestMemoryStore(t *testing.T) { reconciletest.StoreContract(t, reconcile.NewMemoryStore()) }

// The sentinels keep the module's prefix and stay comparable.
func TestErrorsArePrefixed(t *testing.T) {
	s := reconcile.NewMemoryStore()
	ctx := context.Background()
	require.NoError(t, s.Claim(ctx, "a", "t1", time.Hour))
	err := s.Claim(ctx, "a", "t2", time.Hour)
	require.ErrorIs(t, err, reconcile.ErrBusy)
	require.EqualError(t, err, "checkout: reconcile: order claimed by another")
	require.NoError(t, s.Done(ctx, "a", "t1", true, time.Hour))
	err = s.Claim(ctx, "a", "t2", time.Hour)
	require.ErrorIs(t, err, reconcile.ErrHandled)
	require.EqualError(t, err, "checkout: reconcile: order already handled")
}
