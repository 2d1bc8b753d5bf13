package pgclaim_test

import (
	"testing"

	"github.com/payorch/checkout-go/claim/claimtest"
	"github.com/payorch/checkout-go/pgclaim"
	"github.com/payorch/checkout-go/pgclaim/internal/pgtest"
)

// The store keeps every rule of the contract, on a real PostgreSQL.
func TestContract(t *testing.T) {
	t.Parallel()
	srv := pgtest.Start(t, pgtest.Options{})
	claimtest.Store(t, newStore(t, newPool(t, srv.URL), pgclaim.Config{}))
}
