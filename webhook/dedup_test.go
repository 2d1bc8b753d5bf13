package webhook

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
)

// TestHandlerExactlyOnceUnderLoad: 32 senders deliver 5,000 events, 20% of
// them twice, and the merchant's function fails on 10% of first tries.
// Like the service (spec §6.1.4), a sender re-sends every delivery that does
// not get a 200. Every event must be processed exactly once and none lost.
//
// For 100 of the duplicated events the two deliveries are made to overlap
// for certain: they are queued back to back, and the first try of fn waits
// until the claim store has told the other delivery "in flight". Half of
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
	dd := &sawInFlightDedup{Memory: claim.NewMemory(claim.MemoryConfig{}), seen: map[string]chan struct{}{}}
	cfg := baseConfig()
	cfg.Claims = dd
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
	done, held, _ := dd.Len()
	require.Equal(t, [2]int{events, 0}, [2]int{done, held}, "every event recorded, no key left claimed")
}

// sawInFlightDedup is the default claim.Memory (still a claim.Waiter, by
// embedding) that also closes a channel per key the first time Claim
// answers ErrBusy for it.
type sawInFlightDedup struct {
	*claim.Memory
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

func (d *sawInFlightDedup) Claim(ctx context.Context, key, token string, lease time.Duration) error {
	err := d.Memory.Claim(ctx, key, token, lease)
	if errors.Is(err, claim.ErrBusy) {
		ch := d.inFlightSeen(key)
		d.mu.Lock()
		select {
		case <-ch:
		default:
			close(ch)
		}
		d.mu.Unlock()
	}
	return err
}

// hashMod spreads ids evenly: evt_N -> N mod m.
func hashMod(id string, m int) int {
	var n int
	_, _ = fmt.Sscanf(id, "evt_%d", &n)
	return n % m
}

// A function slower than its lease keeps its claim: a re-send arriving
// meanwhile waits (and gets 409), never runs it a second time. (Nothing
// extended a claim before: a slow function ran again for every re-send.)
func TestHandlerKeepsClaimWhileFnRuns(t *testing.T) {
	const lease = 40 * time.Millisecond
	cfg := baseConfig()
	cfg.DedupLease = lease
	cfg.DuplicateWait = -1
	cfg.Claims = newPollDedup() // no Waiter: the duplicate asks Claim
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var calls atomic.Int32
	gate := make(chan struct{})
	h := v.Handler(func(ctx context.Context, _ *Event) error {
		if calls.Add(1) == 1 {
			<-gate
		}
		return ctx.Err()
	})
	first := make(chan int, 1)
	go func() { first <- serve(h, NewTestRequest(cfg, []byte(orderBody))).Code }()
	eventually(t, func() bool { return calls.Load() == 1 }, "first delivery running")
	for range 5 { // five leases long
		time.Sleep(lease)
		require.Equal(t, http.StatusConflict, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	}
	close(gate)
	require.Equal(t, http.StatusOK, <-first, "fn's context lived: the claim was never lost")
	require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Equal(t, int32(1), calls.Load())
}

// doneFailsFirst is a claim store whose first Done calls fail, as Redis
// restarting just after fn succeeded does.
type doneFailsFirst struct {
	*claim.Memory
	fails atomic.Int32
}

func (d *doneFailsFirst) Done(ctx context.Context, key, token string, keep time.Duration) error {
	if d.fails.Add(-1) >= 0 {
		return errors.New("connection reset")
	}
	return d.Memory.Done(ctx, key, token, keep)
}

// A Done that fails is tried again until recorded, so the re-send is a
// duplicate. (Done was tried once: its failure left the claim to lapse, and
// the re-send ran fn again.)
func TestHandlerRetriesDone(t *testing.T) {
	cfg := baseConfig()
	dd := &doneFailsFirst{Memory: claim.NewMemory(claim.MemoryConfig{})}
	dd.fails.Store(3)
	cfg.Claims = dd
	cfg.DedupLease = 300 * time.Millisecond // bounds Done's retries (10, 20, 40 ms apart)
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var calls atomic.Int32
	h := v.Handler(func(context.Context, *Event) error { calls.Add(1); return nil })
	require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	time.Sleep(400 * time.Millisecond) // past the lease
	require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Equal(t, int32(1), calls.Load())
	done, held, _ := dd.Len()
	require.Equal(t, [2]int{1, 0}, [2]int{done, held})
}

// fn's context ends when its claim is lost (another marked the event done,
// or the store was gone past the lease): the work should stop.
func TestHandlerFnContextEndsWhenClaimLost(t *testing.T) {
	cfg := baseConfig()
	mem := claim.NewMemory(claim.MemoryConfig{})
	cfg.Claims = mem
	cfg.DedupLease = 30 * time.Millisecond
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var cause error
	h := v.Handler(func(ctx context.Context, ev *Event) error {
		require.NoError(t, mem.Done(ctx, ev.DedupKey(), "elsewhere", time.Hour))
		<-ctx.Done()
		cause = context.Cause(ctx)
		return ctx.Err()
	})
	require.Equal(t, http.StatusInternalServerError, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.ErrorIs(t, cause, claim.ErrDone)
	require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code, "done elsewhere: a duplicate")
}

// WithDedupKey chooses each event's key; an empty one leaves the claim to
// fn. Two events of one order share a key and run fn once.
func TestWithDedupKey(t *testing.T) {
	cfg := baseConfig()
	mem := claim.NewMemory(claim.MemoryConfig{})
	cfg.Claims = mem
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var calls []string
	h := v.Handler(func(_ context.Context, ev *Event) error { calls = append(calls, ev.ID); return nil },
		WithDedupKey(func(ev *Event) string {
			if ev.Name == OrderFailed {
				return ""
			}
			return "order:" + ev.OrderID()
		}))
	other := strings.Replace(orderBody, "evt_V2_1", "evt_V2_2", 1)
	failed := strings.Replace(strings.Replace(orderBody, "ORDER_SUCCEEDED", "ORDER_FAILED", 1), "evt_V2_1", "evt_V2_3", 1)
	for _, body := range []string{orderBody, other, failed, failed} {
		require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(body))).Code)
	}
	require.Equal(t, []string{"evt_V2_1", "evt_V2_3", "evt_V2_3"}, calls, "evt_V2_2 is the same order; ORDER_FAILED is fn's to claim")
	done, _, _ := mem.Len()
	require.Equal(t, 1, done)
}
