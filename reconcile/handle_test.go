package reconcile_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/reconcile"
)

// A Handle three leases long runs once, by poll and by webhook, though two
// replicas share the store and the service re-sends: its claim is renewed
// while it runs. (Nothing renewed it: it ran 10 to 11 times per order.)
func TestSlowHandleRunsOnce(t *testing.T) {
	const lease = 150 * time.Millisecond
	h := newHandled()
	store := claim.NewMemory(claim.MemoryConfig{})
	slow := func(cfg *reconcile.Config) {
		cfg.Store, cfg.Lease, cfg.ReadTimeout, cfg.Grace = store, lease, lease/2, time.Nanosecond
		cfg.Handle = func(ctx context.Context, st *checkout.OrderStatus) error {
			time.Sleep(3 * lease)
			return h.handle(ctx, st)
		}
	}
	fake, c, a := setup(t, h, slow)
	_, _, b := setup(t, h, slow) // a second replica on the same store
	newOrder(t, c, a, "by-poll")
	newOrder(t, c, a, "by-hook")
	require.NoError(t, fake.DropWebhooksFor("by-poll"))
	run(t, a)
	run(t, b)
	require.NoError(t, fake.Pay("by-poll"))
	require.NoError(t, fake.Pay("by-hook")) // the webhook, re-sent while Handle runs, and the polls
	for _, id := range []string{"by-poll", "by-hook"} {
		require.Eventually(t, func() bool { return len(h.get(id)) == 1 }, 10*time.Second, 5*time.Millisecond, id)
	}
	require.NoError(t, fake.WaitDeliveries(context.Background()))
	time.Sleep(4 * lease) // any second run would have begun by now
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("by-poll"))
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("by-hook"))
}

// doneFails is a store whose first Done calls fail, as Redis away for a
// moment just after Handle succeeded.
type doneFails struct {
	claim.Store
	left atomic.Int32
}

func (d *doneFails) Done(ctx context.Context, key, token string, keep time.Duration) error {
	if d.left.Add(-1) >= 0 {
		return errors.New("connection reset by peer")
	}
	return d.Store.Done(ctx, key, token, keep)
}

// A Done that fails is tried again until recorded: Handle does not run
// again when the claim ends. (One failed Done ran Handle again.)
func TestDoneIsRetriedUntilRecorded(t *testing.T) {
	h := newHandled()
	store := &doneFails{Store: claim.NewMemory(claim.MemoryConfig{})}
	store.left.Store(4)
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) {
		cfg.Store, cfg.Lease, cfg.ReadTimeout, cfg.Grace = store, 200*time.Millisecond, 100*time.Millisecond, time.Nanosecond
	})
	newOrder(t, c, r, "o-1")
	require.NoError(t, fake.DropWebhooksFor("o-1"))
	require.NoError(t, fake.Pay("o-1"))
	run(t, r)
	require.Eventually(t, func() bool { return store.left.Load() < 0 }, 5*time.Second, 5*time.Millisecond, "Done recorded")
	time.Sleep(400 * time.Millisecond) // two leases: a lapsed claim would be polled again
	require.Equal(t, []checkout.Status{checkout.StatusCharged}, h.get("o-1"))
}

// A Handle that panics, by poll or by webhook, is recovered, logged with
// its stack, and retried; Run goes on. (A panic during a poll killed the
// process.)
func TestPanickingHandleIsRecoveredAndRetried(t *testing.T) {
	h := newHandled()
	var tries, panics atomic.Int32
	var logs syncBuffer
	fake, c, r := setup(t, h, func(cfg *reconcile.Config) {
		cfg.Grace = time.Nanosecond
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		cfg.Handle = func(ctx context.Context, st *checkout.OrderStatus) error {
			if tries.Add(1) <= 2 {
				panics.Add(1)
				panic("merchant bug for " + st.OrderID)
			}
			return h.handle(ctx, st)
		}
	})
	newOrder(t, c, r, "by-poll")
	newOrder(t, c, r, "by-hook")
	require.NoError(t, fake.DropWebhooksFor("by-poll"))
	run(t, r)
	require.NoError(t, fake.Pay("by-poll"))
	require.NoError(t, fake.Pay("by-hook"))
	for _, id := range []string{"by-poll", "by-hook"} {
		require.Eventually(t, func() bool { return len(h.get(id)) == 1 }, 5*time.Second, 5*time.Millisecond, id)
	}
	require.EqualValues(t, 2, panics.Load(), "two panics, then the retries succeeded")
	require.Contains(t, logs.String(), "Handle panicked")
	require.Contains(t, logs.String(), "merchant bug for")
	require.Contains(t, logs.String(), "handle_test.go", "with the stack")
}
