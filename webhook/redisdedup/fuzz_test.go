package redisdedup_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/webhook"
	"github.com/payorch/checkout-go/webhook/redisdedup"
)

// FuzzRedisKeys sends event keys as a stranger's webhook body makes them
// (Event.DedupKey of any event name, id and body) and as any caller of
// Begin may pass them (any bytes) through a real Redis. Every key behaves
// alike: claimed once, in flight for a second delivery, released by its
// own token only, then done; and a key never shares its state with
// another.
func FuzzRedisKeys(f *testing.F) {
	// Fuzzing runs the target in worker processes: they use the Redis the
	// first process started rather than start their own.
	f.Setenv("CHECKOUT_REDIS_ADDR", redisAddr(f))
	client := newClient(f, redisAddr(f))
	for _, seed := range []struct{ name, id, raw string }{
		{"ORDER_SUCCEEDED", "evt_V2_7c1b8e0f5a4d4e2b9f3a", `{"id":"evt_V2_7c1b8e0f5a4d4e2b9f3a","event_name":"ORDER_SUCCEEDED"}`},
		{"ORDER_REFUNDED", "", `{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"ord_1"}}}`},
		{"MANDATE:ACTIVATED", "evt 1", "inflight:x"},
		{"ORDER_FAILED", strings.Repeat("9", 200), "done"},
		{"", "ஆ\x00\r\n", "{*}[]%s KEYS[1] ' \" \\"},
	} {
		f.Add(seed.name, seed.id, seed.raw)
	}
	f.Fuzz(func(t *testing.T, name, id, raw string) {
		ctx := context.Background()
		d, err := redisdedup.New(redisdedup.Config{Client: client, Prefix: testPrefix(), TTL: time.Minute, Lease: time.Minute})
		require.NoError(t, err)
		keys := []string{
			(&webhook.Event{Name: name, ID: id}).DedupKey(),
			(&webhook.Event{Name: name, Raw: []byte(raw)}).DedupKey(),
			raw,
		}
		for _, k := range keys[:2] {
			require.LessOrEqual(t, len(k), 128, "%q", k)
			for i := 0; i < len(k); i++ {
				require.True(t, k[i] >= 0x21 && k[i] <= 0x7e, "printable ASCII: %q", k)
			}
		}
		for i, k := range keys {
			if i > 0 && k == keys[i-1] || i == 2 && k == keys[0] {
				continue // the same key, already run
			}
			st, tok, err := d.Begin(ctx, k)
			require.NoError(t, err)
			require.Equal(t, webhook.DedupNew, st, "key %q is new", k)
			st, _, err = d.Begin(ctx, k)
			require.NoError(t, err)
			require.Equal(t, webhook.DedupInFlight, st)
			require.NoError(t, d.Abandon(ctx, k, tok+"x"))
			st, _, _ = d.Begin(ctx, k)
			require.Equal(t, webhook.DedupInFlight, st, "another token releases nothing")
			require.NoError(t, d.Abandon(ctx, k, tok))
			st, tok, err = d.Begin(ctx, k)
			require.NoError(t, err)
			require.Equal(t, webhook.DedupNew, st)
			require.NoError(t, d.Done(ctx, k, tok))
			st, _, _ = d.Begin(ctx, k)
			require.Equal(t, webhook.DedupDone, st)
		}
	})
}
