package webhook

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestMemoryDeduplicatorStates(t *testing.T) {
	ctx := context.Background()
	d := NewMemoryDeduplicator(MemoryDedupConfig{})
	st, tok, err := d.Begin(ctx, "k")
	require.NoError(t, err)
	require.Equal(t, DedupNew, st)
	require.NotEmpty(t, tok)
	st, tok2, _ := d.Begin(ctx, "k")
	require.Equal(t, DedupInFlight, st)
	require.Empty(t, tok2, "no claim, no token")

	require.NoError(t, d.Abandon(ctx, "k", tok))
	st, tok2, _ = d.Begin(ctx, "k")
	require.Equal(t, DedupNew, st, "an abandoned key is claimed again")
	require.NotEqual(t, tok, tok2, "each claim has its own token")

	require.NoError(t, d.Done(ctx, "k", tok2))
	st, _, _ = d.Begin(ctx, "k")
	require.Equal(t, DedupDone, st)
	done, inFlight := d.Len()
	require.Equal(t, 1, done)
	require.Equal(t, 0, inFlight)

	require.Equal(t, "new", DedupNew.String())
	require.Equal(t, "in-flight", DedupInFlight.String())
	require.Equal(t, "done", DedupDone.String())
	require.Equal(t, "invalid", DedupState(0).String())
}

// A delivery ends only its own claim: a release repeated after the key
// passed to another delivery (a wrapper retrying Abandon, a late caller)
// leaves the new claim alone, so a third delivery does not run beside the
// second. (Abandon by key alone released whoever held it.)
func TestMemoryDeduplicatorStaleTokenReleasesNothing(t *testing.T) {
	ctx := context.Background()
	d := NewMemoryDeduplicator(MemoryDedupConfig{})
	st, tokA, _ := d.Begin(ctx, "k") // A
	require.Equal(t, DedupNew, st)
	require.NoError(t, d.Abandon(ctx, "k", tokA)) // A fails
	st, tokB, _ := d.Begin(ctx, "k")              // B
	require.Equal(t, DedupNew, st)

	require.NoError(t, d.Abandon(ctx, "k", tokA)) // A's release, again
	require.NoError(t, d.Abandon(ctx, "k", ""))   // no claim at all
	st, _, _ = d.Begin(ctx, "k")                  // C
	require.Equal(t, DedupInFlight, st, "B still holds the claim")
	_, inFlight := d.Len()
	require.Equal(t, 1, inFlight)

	require.NoError(t, d.Abandon(ctx, "k", tokB))
	st, _, _ = d.Begin(ctx, "k")
	require.Equal(t, DedupNew, st, "B's own token releases it")
}

func TestMemoryDeduplicatorTTL(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := NewMemoryDeduplicator(MemoryDedupConfig{TTL: time.Hour, Now: clk.Now})
	_, _, _ = d.Begin(ctx, "a")
	require.NoError(t, d.Done(ctx, "a", ""))
	clk.Add(59 * time.Minute)
	st, _, _ := d.Begin(ctx, "a")
	require.Equal(t, DedupDone, st)
	clk.Add(time.Minute)
	st, tok, _ := d.Begin(ctx, "a")
	require.Equal(t, DedupNew, st, "forgotten after the TTL")
	require.NoError(t, d.Abandon(ctx, "a", tok))

	// Expired keys are swept when others are recorded.
	_, _, _ = d.Begin(ctx, "b")
	require.NoError(t, d.Done(ctx, "b", ""))
	clk.Add(2 * time.Hour)
	_, _, _ = d.Begin(ctx, "c")
	require.NoError(t, d.Done(ctx, "c", ""))
	done, _ := d.Len()
	require.Equal(t, 1, done)
}

func TestMemoryDeduplicatorBounded(t *testing.T) {
	ctx := context.Background()
	d := NewMemoryDeduplicator(MemoryDedupConfig{MaxEntries: 3})
	for i := 0; i < 10; i++ {
		k := fmt.Sprint(i)
		st, _, _ := d.Begin(ctx, k)
		require.Equal(t, DedupNew, st)
		require.NoError(t, d.Done(ctx, k, ""))
		done, _ := d.Len()
		require.LessOrEqual(t, done, 3)
	}
	for i := 7; i < 10; i++ {
		st, _, _ := d.Begin(ctx, fmt.Sprint(i))
		require.Equal(t, DedupDone, st, "key %d is among the newest three", i)
	}
	st, _, _ := d.Begin(ctx, "0")
	require.Equal(t, DedupNew, st, "the oldest was forgotten")

	// Keys in flight do not count and are never evicted.
	d = NewMemoryDeduplicator(MemoryDedupConfig{MaxEntries: 1})
	for i := 0; i < 5; i++ {
		_, _, _ = d.Begin(ctx, fmt.Sprint("f", i))
	}
	_, inFlight := d.Len()
	require.Equal(t, 5, inFlight)
	st, _, _ = d.Begin(ctx, "f0")
	require.Equal(t, DedupInFlight, st)
}

func TestMemoryDeduplicatorOneWinner(t *testing.T) {
	ctx := context.Background()
	d := NewMemoryDeduplicator(MemoryDedupConfig{})
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st, _, _ := d.Begin(ctx, "same"); st == DedupNew {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int32(1), wins.Load())
}

func TestMemoryDeduplicatorStaleRecords(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := NewMemoryDeduplicator(MemoryDedupConfig{TTL: time.Hour, MaxEntries: 10, Now: clk.Now})
	require.NoError(t, d.Done(ctx, "a", ""))
	clk.Add(30 * time.Minute)
	require.NoError(t, d.Done(ctx, "a", "")) // recorded again: the first record is stale
	clk.Add(31 * time.Minute)
	require.NoError(t, d.Done(ctx, "b", "")) // sweeps the first record of "a"
	st, _, _ := d.Begin(ctx, "a")
	require.Equal(t, DedupDone, st, "the stale record must not forget the newer one")
	done, _ := d.Len()
	require.Equal(t, 2, done)

	// Thousands of keys through a small bound: the queue is compacted and
	// the map never exceeds the bound.
	d = NewMemoryDeduplicator(MemoryDedupConfig{MaxEntries: 100})
	for i := 0; i < 5000; i++ {
		k := fmt.Sprint("k", i)
		_, _, _ = d.Begin(ctx, k)
		require.NoError(t, d.Done(ctx, k, ""))
	}
	done, _ = d.Len()
	require.Equal(t, 100, done)
	require.LessOrEqual(t, len(d.done.recs), 2*1024+100)
	st, _, _ = d.Begin(ctx, "k4999")
	require.Equal(t, DedupDone, st)
	st, _, _ = d.Begin(ctx, "k4899")
	require.Equal(t, DedupNew, st)
}

// TestMemoryDeduplicatorQueueBounded: the record queue stays bounded even
// when callers leave stale records behind faster than the TTL sweeps them:
// one key recorded again and again (with a clock that does not move, so
// every record has the same expiry), and keys found expired by Begin.
func TestMemoryDeduplicatorQueueBounded(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	d := NewMemoryDeduplicator(MemoryDedupConfig{TTL: time.Hour, MaxEntries: 10, Now: clk.Now})
	for i := 0; i < 10_000; i++ {
		require.NoError(t, d.Done(ctx, "same", ""))
		require.LessOrEqual(t, len(d.done.recs)-d.done.head, 2*10+64+1, "after %d re-records", i)
	}
	st, _, _ := d.Begin(ctx, "same")
	require.Equal(t, DedupDone, st, "dropping stale records keeps the live one")
	done, _ := d.Len()
	require.Equal(t, 1, done)

	// Records of keys Begin found expired are dropped too.
	for i := 0; i < 2000; i++ {
		k := fmt.Sprint("e", i%5)
		st, _, _ := d.Begin(ctx, k)
		require.Equal(t, DedupNew, st)
		require.NoError(t, d.Done(ctx, k, ""))
		clk.Add(2 * time.Hour) // every record expires before the next Done
		require.LessOrEqual(t, len(d.done.recs)-d.done.head, 2*10+64+1)
	}
	require.LessOrEqual(t, cap(d.done.recs), 4096, "the backing array does not grow without bound")
}

// TestMemoryDeduplicatorZeroAndNil: the zero value works with the
// defaults; a nil one errors (Handler: 500, fn not called) and never panics.
func TestMemoryDeduplicatorZeroAndNil(t *testing.T) {
	ctx := context.Background()
	var zero MemoryDeduplicator
	require.Nil(t, zero.Released("k"))
	require.NoError(t, zero.Abandon(ctx, "k", ""))
	st, tok, err := zero.Begin(ctx, "k")
	require.NoError(t, err)
	require.Equal(t, DedupNew, st)
	require.NotNil(t, zero.Released("k"))
	require.NoError(t, zero.Done(ctx, "k", tok))
	st, _, _ = zero.Begin(ctx, "k")
	require.Equal(t, DedupDone, st)
	var zero2 MemoryDeduplicator
	require.NoError(t, zero2.Done(ctx, "never begun", ""))
	done, inFlight := zero2.Len()
	require.Equal(t, [2]int{1, 0}, [2]int{done, inFlight})

	var nilD *MemoryDeduplicator
	require.NotPanics(t, func() {
		_, _, err := nilD.Begin(ctx, "k")
		require.Error(t, err)
		require.Error(t, nilD.Done(ctx, "k", ""))
		require.Error(t, nilD.Abandon(ctx, "k", ""))
		require.Nil(t, nilD.Released("k"))
		done, inFlight := nilD.Len()
		require.Equal(t, [2]int{0, 0}, [2]int{done, inFlight})
	})

	cfg := baseConfig()
	cfg.Deduplicator = nilD
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	h := v.Handler(func(context.Context, *Event) error { t.Error("fn called"); return nil })
	rec := httptest.NewRecorder()
	require.NotPanics(t, func() { h.ServeHTTP(rec, NewTestRequest(cfg, []byte(orderBody))) })
	require.Equal(t, http.StatusInternalServerError, rec.Code)
}
