package reconcile_test

import (
	"testing"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/reconcile"
)

func TestMemoryStore(t *testing.T) { checkouttest.StoreContract(t, reconcile.NewMemoryStore()) }
