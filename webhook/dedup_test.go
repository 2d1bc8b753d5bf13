package webhook

import (
	"context"
	"fmt"
	"math/rand/v2"
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

// TestHandlerExactlyOnceUnderLoad: 32 senders deliver 5,000 events, 20% of
// them twice, and the merchant's function fails on 10% of first tries.
// Like the service (spec §6.1.4), a sender re-sends every delivery that does
// not get a 200. Every event must be processed exactly once and none lost.
//
// For 100 of the duplicated events the two deliveries are made to overlap
// for certain: they are queued back to back, and the first try of fn waits
// until the Deduplicator has told the other delivery "in flight". Half of
// them then fail that first try, so a waiting duplicate must take the event
// over (Handler's DuplicateWait logic) while its failed first delivery is
// re-sent.
func TestHandlerExactlyOnceUnderLoad(t *testing.T) {
	const (
		events  = 5000
		senders = 32
	)
	// forced: duplicated events (i%5 == 0) whose two deliveries overlap;
	// i%100 == 50 also fails its first try (i%10 == 0), i%100 == 5 does not.
	forced := func(i int) bool { return i%100 == 5 || i%100 == 50 }
	dd := &sawInFlightDedup{MemoryDeduplicator: NewMemoryDeduplicator(MemoryDedupConfig{}), seen: map[string]chan struct{}{}}
	cfg := baseConfig()
	cfg.Deduplicator = dd
	v, err := NewVerifier(cfg)
	require.NoError(t, err)

	var (
		mu        sync.Mutex
		processed = make(map[string]int, events)
		attempts  = make(map[string]int, events)
		failures  atomic.Int32
	)
	h := v.Handler(func(_ context.Context, ev *Event) error {
		mu.Lock()
		attempts[ev.ID]++
		first := attempts[ev.ID] == 1
		mu.Unlock()
		if first && forced(hashMod(ev.ID, events)) {
			select {
			case <-dd.inFlightSeen(ev.DedupKey()):
			case <-time.After(10 * time.Second):
				t.Errorf("%s: the other delivery never found the event in flight", ev.ID)
			}
		}
		// Decided by the id, so 10% of events fail their first try.
		if first && hashMod(ev.ID, 10) == 0 {
			failures.Add(1)
			return fmt.Errorf("transient failure for %s", ev.ID)
		}
		mu.Lock()
		processed[ev.ID]++
		mu.Unlock()
		return nil
	})

	// The delivery queue: every event once, 20% of them twice; the forced
	// pairs back to back, the other duplicates anywhere.
	var units [][]int
	for i := 0; i < events; i++ {
		switch {
		case forced(i):
			units = append(units, []int{i, i})
		case i%5 == 0:
			units = append(units, []int{i}, []int{i})
		default:
			units = append(units, []int{i})
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	var queue []int
	for _, u := range units {
		queue = append(queue, u...)
	}
	require.Len(t, queue, events+events/5)

	work := make(chan int)
	var statuses sync.Map // status -> *atomic.Int32
	var wg sync.WaitGroup
	for s := 0; s < senders; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				body := fmt.Appendf(nil, `{"id":"evt_%d","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_%d","status":"CHARGED"}}}`, i, i)
				for try := 0; ; try++ {
					code := serve(h, NewTestRequest(cfg, body)).Code
					c, _ := statuses.LoadOrStore(code, new(atomic.Int32))
					c.(*atomic.Int32).Add(1)
					if code == http.StatusOK {
						// Never 200 before the event is processed: the
						// service would stop re-sending it.
						mu.Lock()
						n := processed[fmt.Sprintf("evt_%d", i)]
						mu.Unlock()
						if n != 1 {
							t.Errorf("event %d: 200 while processed %d times", i, n)
						}
						break
					}
					// 409 would mean a duplicate was not made to wait for
					// the first delivery (DESIGN §5: duplicates get 200).
					if code != http.StatusInternalServerError {
						t.Errorf("event %d: status %d", i, code)
						return
					}
					if try > 1000 {
						t.Errorf("event %d never acknowledged", i)
						return
					}
				}
			}
		}()
	}
	for _, i := range queue {
		work <- i
	}
	close(work)
	wg.Wait()

	require.Len(t, processed, events, "an event was lost")
	for id, n := range processed {
		require.Equal(t, 1, n, "%s processed %d times", id, n)
	}
	require.Equal(t, int32(events/10), failures.Load(), "10%% of first tries failed")
	count := func(code int) int32 {
		c, ok := statuses.Load(code)
		if !ok {
			return 0
		}
		return c.(*atomic.Int32).Load()
	}
	require.Equal(t, int32(events/10), count(http.StatusInternalServerError))
	// Each delivery in the queue ends with exactly one 200.
	require.Equal(t, int32(len(queue)), count(http.StatusOK))
	// Every forced pair really overlapped.
	for i := 0; i < events; i++ {
		if forced(i) {
			select {
			case <-dd.inFlightSeen(fmt.Sprintf("id:ORDER_SUCCEEDED:evt_%d", i)):
			default:
				t.Errorf("evt_%d: deliveries did not overlap", i)
			}
		}
	}
	done, inFlight := dd.Len()
	require.Equal(t, [2]int{events, 0}, [2]int{done, inFlight}, "every event recorded, no key left claimed")
}

// sawInFlightDedup is the default MemoryDeduplicator (still a DedupWaiter,
// by embedding) that also closes a channel per key the first time Begin
// answers DedupInFlight for it.
type sawInFlightDedup struct {
	*MemoryDeduplicator
	mu   sync.Mutex
	seen map[string]chan struct{}
}

func (d *sawInFlightDedup) inFlightSeen(key string) chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, ok := d.seen[key]
	if !ok {
		ch = make(chan struct{})
		d.seen[key] = ch
	}
	return ch
}

func (d *sawInFlightDedup) Begin(ctx context.Context, key string) (DedupState, DedupToken, error) {
	st, tok, err := d.MemoryDeduplicator.Begin(ctx, key)
	if st == DedupInFlight {
		ch := d.inFlightSeen(key)
		d.mu.Lock()
		select {
		case <-ch:
		default:
			close(ch)
		}
		d.mu.Unlock()
	}
	return st, tok, err
}

// hashMod spreads ids evenly: evt_N -> N mod m.
func hashMod(id string, m int) int {
	var n int
	_, _ = fmt.Sscanf(id, "evt_%d", &n)
	return n % m
}
