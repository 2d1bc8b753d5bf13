package webhook

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// reqIDKey tags each test request's context, so that a Deduplicator can
// tell which deliveries have been told "in flight".
type reqIDKey struct{}

// pollDedup is a MemoryDeduplicator seen only through the Deduplicator
// interface, as a Redis or SQL store would be: Handler must poll Begin. It
// records which requests Begin answered DedupInFlight.
type pollDedup struct {
	m *MemoryDeduplicator

	mu      sync.Mutex
	waiting map[int]bool
	begins  atomic.Int32
}

func newPollDedup() *pollDedup {
	return &pollDedup{m: NewMemoryDeduplicator(MemoryDedupConfig{}), waiting: map[int]bool{}}
}

func (d *pollDedup) Begin(ctx context.Context, key string) (DedupState, DedupToken, error) {
	d.begins.Add(1)
	st, tok, err := d.m.Begin(ctx, key)
	if id, ok := ctx.Value(reqIDKey{}).(int); ok && st == DedupInFlight {
		d.mu.Lock()
		d.waiting[id] = true
		d.mu.Unlock()
	}
	return st, tok, err
}
func (d *pollDedup) Done(ctx context.Context, key string, tok DedupToken) error {
	return d.m.Done(ctx, key, tok)
}
func (d *pollDedup) Abandon(ctx context.Context, key string, tok DedupToken) error {
	return d.m.Abandon(ctx, key, tok)
}

func (d *pollDedup) waitingCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.waiting)
}

// wakeDedup is pollDedup plus DedupWaiter: Handler is woken, not polling.
type wakeDedup struct{ *pollDedup }

func (d wakeDedup) Released(key string) <-chan struct{} { return d.m.Released(key) }

var (
	_ DedupWaiter = (*MemoryDeduplicator)(nil)
	_ DedupWaiter = wakeDedup{}
)

// dedupKinds runs a test against a store Handler must poll and one that
// wakes it.
func dedupKinds() []struct {
	name string
	make func() (Deduplicator, *pollDedup)
} {
	return []struct {
		name string
		make func() (Deduplicator, *pollDedup)
	}{
		{"polling store", func() (Deduplicator, *pollDedup) { d := newPollDedup(); return d, d }},
		{"waking store", func() (Deduplicator, *pollDedup) { d := newPollDedup(); return wakeDedup{d}, d }},
	}
}

// deliverAll sends n identical deliveries of orderBody at once, each tagged
// with its index, and returns a channel of their status codes.
func deliverAll(h http.Handler, cfg Config, n int) <-chan int {
	codes := make(chan int, n)
	for i := 0; i < n; i++ {
		go func() {
			r := NewTestRequest(cfg, []byte(orderBody))
			r = r.WithContext(context.WithValue(r.Context(), reqIDKey{}, i))
			codes <- serve(h, r).Code
		}()
	}
	return codes
}

// eventually waits (bounded) until cond holds.
func eventually(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, time.Millisecond, msg)
}

func collect(codes <-chan int, n int) map[int]int {
	got := map[int]int{}
	for i := 0; i < n; i++ {
		got[<-codes]++
	}
	return got
}

func TestHandlerConcurrentDuplicatesAllGet200(t *testing.T) {
	for _, kind := range dedupKinds() {
		for _, n := range []int{10, 32} {
			t.Run(kind.name+"/"+strconv.Itoa(n), func(t *testing.T) {
				dd, probe := kind.make()
				cfg := baseConfig()
				cfg.Deduplicator = dd
				v, err := NewVerifier(cfg)
				require.NoError(t, err)
				var calls atomic.Int32
				gate := make(chan struct{})
				h := v.Handler(func(context.Context, *Event) error {
					calls.Add(1)
					<-gate
					return nil
				})
				codes := deliverAll(h, cfg, n)
				// Every other delivery has been told the event is in flight
				// and is waiting; only then may the first finish.
				eventually(t, func() bool { return calls.Load() == 1 && probe.waitingCount() == n-1 }, "duplicates waiting")
				close(gate)
				require.Equal(t, map[int]int{http.StatusOK: n}, collect(codes, n))
				require.Equal(t, int32(1), calls.Load(), "fn ran once")
				done, inFlight := probe.m.Len()
				require.Equal(t, [2]int{1, 0}, [2]int{done, inFlight})
			})
		}
	}
}

func TestHandlerFirstDeliveryFailsAWaiterProcessesTheEvent(t *testing.T) {
	for _, kind := range dedupKinds() {
		t.Run(kind.name, func(t *testing.T) {
			const n = 10
			dd, probe := kind.make()
			cfg := baseConfig()
			cfg.Deduplicator = dd
			v, err := NewVerifier(cfg)
			require.NoError(t, err)
			var calls, succeeded atomic.Int32
			gate := make(chan struct{})
			h := v.Handler(func(context.Context, *Event) error {
				if calls.Add(1) == 1 {
					<-gate
					return errors.New("first try fails")
				}
				succeeded.Add(1)
				return nil
			})
			codes := deliverAll(h, cfg, n)
			eventually(t, func() bool { return calls.Load() == 1 && probe.waitingCount() == n-1 }, "duplicates waiting")
			close(gate)
			// The failed delivery gets 500 (the service will re-send it);
			// one waiter runs fn; everyone else is told 200 after that.
			require.Equal(t, map[int]int{http.StatusInternalServerError: 1, http.StatusOK: n - 1}, collect(codes, n))
			require.Equal(t, int32(2), calls.Load(), "exactly one waiter ran fn")
			require.Equal(t, int32(1), succeeded.Load(), "processed exactly once")
			done, inFlight := probe.m.Len()
			require.Equal(t, [2]int{1, 0}, [2]int{done, inFlight})

			// The service's re-send of the failed delivery is a duplicate now.
			require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
			require.Equal(t, int32(2), calls.Load())
		})
	}
}

func TestHandlerDuplicateWaitEnds(t *testing.T) {
	tests := []struct {
		name   string
		wait   time.Duration
		cancel bool // the duplicate's sender hangs up while it waits
	}{
		{"DuplicateWait elapses", 30 * time.Millisecond, false},
		{"sender hangs up", 0, true}, // default wait (10 s): the context ends it
		{"negative DuplicateWait: no wait", -1, false},
	}
	for _, tt := range tests {
		for _, kind := range dedupKinds() {
			t.Run(tt.name+"/"+kind.name, func(t *testing.T) {
				dd, probe := kind.make()
				cfg := baseConfig()
				cfg.Deduplicator = dd
				cfg.DuplicateWait = tt.wait
				v, err := NewVerifier(cfg)
				require.NoError(t, err)
				var calls atomic.Int32
				started := make(chan struct{})
				gate := make(chan struct{})
				h := v.Handler(func(context.Context, *Event) error {
					calls.Add(1)
					close(started)
					<-gate
					return nil
				})
				first := make(chan int, 1)
				go func() { first <- serve(h, NewTestRequest(cfg, []byte(orderBody))).Code }()
				<-started

				ctx, cancel := context.WithCancel(context.WithValue(context.Background(), reqIDKey{}, 1))
				defer cancel()
				if tt.cancel {
					go func() {
						for probe.waitingCount() == 0 {
							time.Sleep(time.Millisecond)
						}
						cancel()
					}()
				}
				rec := serve(h, NewTestRequest(cfg, []byte(orderBody)).WithContext(ctx))
				// Never 200 while the event is not processed.
				require.Equal(t, http.StatusConflict, rec.Code)
				require.Equal(t, "5", rec.Header().Get("Retry-After"))
				if tt.wait < 0 {
					require.Equal(t, int32(2), probe.begins.Load(), "no wait: Begin asked once per delivery")
				}

				close(gate)
				require.Equal(t, http.StatusOK, <-first)
				// The service's re-send is acknowledged without running fn.
				require.Equal(t, http.StatusOK, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
				require.Equal(t, int32(1), calls.Load())
			})
		}
	}
}

// beginFailsWhileWaiting answers DedupInFlight once, then fails.
type beginFailsWhileWaiting struct {
	stubDedup
	n atomic.Int32
}

func (d *beginFailsWhileWaiting) Begin(context.Context, string) (DedupState, DedupToken, error) {
	if d.n.Add(1) == 1 {
		return DedupInFlight, "", nil
	}
	return 0, "", errors.New("store down")
}

func TestHandlerDeduplicatorFailsWhileWaiting(t *testing.T) {
	cfg := baseConfig()
	cfg.Deduplicator = &beginFailsWhileWaiting{}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	called := false
	h := v.Handler(func(context.Context, *Event) error { called = true; return nil })
	require.Equal(t, http.StatusInternalServerError, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.False(t, called)
}

func TestMemoryDeduplicatorReleased(t *testing.T) {
	ctx := context.Background()
	d := NewMemoryDeduplicator(MemoryDedupConfig{})
	require.Nil(t, d.Released("k"), "not in flight")
	st, tok, err := d.Begin(ctx, "k")
	require.NoError(t, err)
	require.Equal(t, DedupNew, st)
	a, b := d.Released("k"), d.Released("k")
	require.NotNil(t, a)
	require.Equal(t, a, b, "one channel per flight")
	select {
	case <-a:
		t.Fatal("closed while in flight")
	default:
	}
	require.NoError(t, d.Abandon(ctx, "k", tok))
	<-a // closed by Abandon
	require.Nil(t, d.Released("k"))

	st, tok, _ = d.Begin(ctx, "k")
	require.Equal(t, DedupNew, st)
	c := d.Released("k")
	require.NoError(t, d.Done(ctx, "k", tok))
	<-c // closed by Done
	require.Nil(t, d.Released("k"), "done, not in flight")
}
