package claim_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/payorch/checkout-go/claim"
)

// The life of one key: claimed by one worker, refused to another while
// held, marked done, and then done for everyone until its keep ends.
func Example() {
	ctx := context.Background()
	store := claim.NewMemory(claim.MemoryConfig{})
	fmt.Println(store.Claim(ctx, "order:ord-1", "worker-a", time.Minute))
	err := store.Claim(ctx, "order:ord-1", "worker-b", time.Minute)
	fmt.Println(errors.Is(err, claim.ErrBusy))
	// worker-a's effect happens here; then:
	fmt.Println(store.Done(ctx, "order:ord-1", "worker-a", 7*24*time.Hour))
	err = store.Claim(ctx, "order:ord-1", "worker-b", time.Minute)
	fmt.Println(errors.Is(err, claim.ErrDone))
	// Output:
	// <nil>
	// true
	// <nil>
	// true
}
