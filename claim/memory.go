package claim

import (
	"container/heap"
	"context"
	"math"
	"sync"
	"time"
)

// DefaultMaxDone bounds the done keys a [Memory] store remembers when
// MemoryConfig.MaxDone is 0: 100,000 (about 3.5 MB).
const DefaultMaxDone = 100_000

// MemoryConfig sizes a [Memory] store.
type MemoryConfig struct {
	// MaxDone bounds the done keys remembered; 0 (or less) means
	// DefaultMaxDone. The oldest are forgotten first, before their keep
	// ends: a re-sent webhook older than that is processed again.
	MaxDone int
	// Now replaces time.Now (tests). Nil means time.Now.
	Now func() time.Time
}

// Memory is the [Store] of one process: what it holds is lost when the
// process ends, so use it for one replica (it is the default of the
// webhook handler and of the reconciler) and package redisclaim for
// several. A done key costs about 35 bytes whatever its length (a 128-bit
// digest is kept). The zero value is ready to use; a nil *Memory answers
// every call with an error. It is safe for concurrent use and a [Waiter].
type Memory struct {
	max int
	now func() time.Time

	mu      sync.Mutex
	held    map[string]*hold
	done    doneSet
	tracked map[string]*track
	queue   dueQueue
}

// hold is a key's claim: its token, until when it lasts, and a channel
// closed when it ends (nil until someone waits).
type hold struct {
	token    string
	until    time.Time
	released chan struct{}
}

// track is a tracked key and its place in the due queue.
type track struct {
	key     string
	due     time.Time
	expires time.Time
	polls   int
	index   int
}

// NewMemory returns an empty Memory store.
func NewMemory(cfg MemoryConfig) *Memory {
	m := &Memory{max: cfg.MaxDone, now: cfg.Now}
	m.init()
	return m
}

const errNilMemory = sentinel("checkout: claim: nil *Memory (use NewMemory)")

// init gives a zero Memory its maps and defaults. m.mu must be held, or m
// not yet shared.
func (m *Memory) init() {
	if m.held == nil {
		m.held = map[string]*hold{}
		m.tracked = map[string]*track{}
	}
	if m.max <= 0 {
		m.max = DefaultMaxDone
	}
	m.max = min(m.max, maxDoneEntries)
	if m.now == nil {
		m.now = time.Now
	}
}

// lock takes m's mutex after the nil check, and returns when it is held.
func (m *Memory) lock() (time.Time, error) {
	if m == nil {
		return time.Time{}, errNilMemory
	}
	m.mu.Lock()
	m.init()
	return m.now(), nil
}

// isDone reports whether key is done at now, forgetting a stale record.
func (m *Memory) isDone(key string, now time.Time) bool {
	k := digest(key)
	rec, ok := m.done.lookup(k)
	if !ok {
		return false
	}
	if now.UnixNano() < rec.expires {
		return true
	}
	m.done.forget(k)
	return false
}

// holder returns key's live claim, freeing a lapsed one.
func (m *Memory) holder(key string, now time.Time) *hold {
	h := m.held[key]
	if h != nil && !now.Before(h.until) {
		m.free(key)
		return nil
	}
	return h
}

// free ends key's claim and wakes its waiters.
func (m *Memory) free(key string) {
	if h := m.held[key]; h != nil && h.released != nil {
		close(h.released)
	}
	delete(m.held, key)
}

// untrack ends key's tracking.
func (m *Memory) untrack(key string) {
	if t := m.tracked[key]; t != nil {
		heap.Remove(&m.queue, t.index)
		delete(m.tracked, key)
	}
}

// Claim holds key for token during lease (see [Claimer]).
func (m *Memory) Claim(_ context.Context, key, token string, lease time.Duration) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	if m.isDone(key, now) {
		return ErrDone
	}
	if h := m.holder(key, now); h != nil {
		if h.token != token {
			return ErrBusy
		}
		h.until = now.Add(lease)
		return nil
	}
	m.held[key] = &hold{token: token, until: now.Add(lease)}
	return nil
}

// Extend renews token's claim on key (see [Claimer]).
func (m *Memory) Extend(_ context.Context, key, token string, lease time.Duration) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	if m.isDone(key, now) {
		return ErrDone
	}
	h := m.holder(key, now)
	if h == nil || h.token != token {
		return ErrBusy
	}
	h.until = now.Add(lease)
	return nil
}

// Done marks key done for keep (see [Claimer]).
func (m *Memory) Done(_ context.Context, key, _ string, keep time.Duration) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.free(key)
	m.untrack(key)
	ns := now.UnixNano()
	// Forget expired keys, then the oldest, to stay within bounds.
	for r, ok := m.done.oldest(); ok && r.expires <= ns; r, ok = m.done.oldest() {
		m.done.pop()
	}
	k := digest(key)
	m.done.forget(k) // a key marked again leaves a stale record
	for m.done.n >= m.max {
		m.done.pop()
	}
	until := ns + int64(keep)
	if keep > 0 && until < ns { // a keep past year 2262 saturates
		until = math.MaxInt64
	}
	m.done.add(k, until)
	m.done.tidy()
	return nil
}

// Release frees key if token holds it (see [Claimer]).
func (m *Memory) Release(_ context.Context, key, token string) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	if h := m.holder(key, now); h != nil && h.token == token {
		m.free(key)
	}
	return nil
}

// Track tracks key (see [Store]).
func (m *Memory) Track(_ context.Context, key string, due, expires time.Time) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	if m.tracked[key] != nil || m.isDone(key, now) {
		return nil
	}
	t := &track{key: key, due: due, expires: expires}
	m.tracked[key] = t
	heap.Push(&m.queue, t)
	return nil
}

// ClaimDue claims up to n tracked keys due by now (see [Store]).
func (m *Memory) ClaimDue(_ context.Context, now time.Time, n int, token string, lease time.Duration) ([]Entry, error) {
	clock, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []Entry
	var back []*track // popped, to be queued again
	for len(out) < n && m.queue.Len() > 0 && !m.queue[0].due.After(now) {
		t := heap.Pop(&m.queue).(*track)
		switch {
		case m.isDone(t.key, clock):
			delete(m.tracked, t.key)
		case m.holder(t.key, clock) != nil:
			back = append(back, t)
		default:
			m.held[t.key] = &hold{token: token, until: clock.Add(lease)}
			t.due = now.Add(lease)
			back = append(back, t)
			out = append(out, Entry{Key: t.key, Polls: t.polls, Expires: t.expires})
		}
	}
	for _, t := range back {
		heap.Push(&m.queue, t)
	}
	return out, nil
}

// Reschedule frees key and sets when it is due (see [Store]).
func (m *Memory) Reschedule(_ context.Context, key, token string, due time.Time, polls int) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	if h := m.holder(key, now); h == nil || h.token != token {
		return nil
	}
	m.free(key)
	if t := m.tracked[key]; t != nil {
		t.due, t.polls = due, polls
		heap.Fix(&m.queue, t.index)
	}
	return nil
}

// Untrack frees key and ends its tracking (see [Store]).
func (m *Memory) Untrack(_ context.Context, key, token string) error {
	now, err := m.lock()
	if err != nil {
		return err
	}
	defer m.mu.Unlock()
	if h := m.holder(key, now); h != nil && h.token == token {
		m.free(key)
		m.untrack(key)
	}
	return nil
}

// Released returns a channel closed when key, held now, is freed or done
// (see [Waiter]), or nil when key is not held.
func (m *Memory) Released(key string) <-chan struct{} {
	now, err := m.lock()
	if err != nil {
		return nil
	}
	defer m.mu.Unlock()
	h := m.holder(key, now)
	if h == nil {
		return nil
	}
	if h.released == nil {
		h.released = make(chan struct{})
	}
	return h.released
}

// Len returns how many keys m remembers as done, holds (a lapsed claim
// counts until its key is next used), and tracks.
func (m *Memory) Len() (done, held, tracked int) {
	if _, err := m.lock(); err != nil {
		return 0, 0, 0
	}
	defer m.mu.Unlock()
	return m.done.n, len(m.held), len(m.tracked)
}

// dueQueue is the tracked keys, earliest due first (container/heap).
type dueQueue []*track

func (q dueQueue) Len() int           { return len(q) }
func (q dueQueue) Less(i, j int) bool { return q[i].due.Before(q[j].due) }
func (q dueQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *dueQueue) Push(x any) {
	t := x.(*track)
	t.index = len(*q)
	*q = append(*q, t)
}
func (q *dueQueue) Pop() any {
	old := *q
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return t
}

var (
	_ Store  = (*Memory)(nil)
	_ Waiter = (*Memory)(nil)
)
