package webhook

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
)

// reqIDKey tags each test request's context, so that a claim store can
// tell which deliveries have been told "in flight".
type reqIDKey struct{}

// pollDedup is a claim.Memory seen only through the claim.Claimer
// interface, as a Redis or SQL store would be: Handler must poll Claim. It
// records which requests Claim answered ErrBusy.
type pollDedup struct {
	m *claim.Memory

	mu      sync.Mutex
	waiting map[int]bool
	claims  atomic.Int32
}

func newPollDedup() *pollDedup {
	return &pollDedup{m: claim.NewMemory(claim.MemoryConfig{}), waiting: map[int]bool{}}
}

func (d *pollDedup) Claim(ctx context.Context, key, token string, lease time.Duration) error {
	d.claims.Add(1)
	err := d.m.Claim(ctx, key, token, lease)
	if id, ok := ctx.Value(reqIDKey{}).(int); ok && errors.Is(err, claim.ErrBusy) {
		d.mu.Lock()
		d.waiting[id] = true
		d.mu.Unlock()
	}
	return err
}
func (d *pollDedup) Extend(ctx context.Context, key, token string, lease time.Duration) error {
	return d.m.Extend(ctx, key, token, lease)
}
func (d *pollDedup) Done(ctx context.Context, key, token string, keep time.Duration) error {
	return d.m.Done(ctx, key, token, keep)
}
func (d *pollDedup) Release(ctx context.Context, key, token string) error {
	return d.m.Release(ctx, key, token)
}

func (d *pollDedup) waitingCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.waiting)
}

// doneAndHeld returns how many keys the store has done and holds.
func (d *pollDedup) doneAndHeld() [2]int {
	done, held, _ := d.m.Len()
	return [2]int{done, held}
}

// wakeDedup is pollDedup plus claim.Waiter: Handler is woken, not polling.
type wakeDedup struct{ *pollDedup }

func (d wakeDedup) Released(key string) <-chan struct{} { return d.m.Released(key) }

var _ claim.Waiter = wakeDedup{}

// dedupKinds runs a test against a store Handler must poll and one that
// wakes it.
func dedupKinds() []struct {
	name string
	make func() (claim.Claimer, *pollDedup)
} {
	return []struct {
		name string
		make func() (claim.Claimer, *pollDedup)
	}{
		{"polling store", func() (claim.Claimer, *pollDedup) { d := newPollDedup(); return d, d }},
		{"waking store", func() (claim.Claimer, *pollDedup) { d := newPollDedup(); return wakeDedup{d}, d }},
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
