package webhook

import (
	"context"
	"net/http"
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
