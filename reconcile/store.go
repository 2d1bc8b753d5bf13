package reconcile

import (
	"context"
	"sync"
	"time"
)

// Errors of a Store's Claim, Extend and Done.
const (
	// ErrHandled: the order's final status was handled already.
	ErrHandled = sentinel("checkout: reconcile: order already handled")
	// ErrBusy: the order is not held by the claim asked about.
	ErrBusy = sentinel("checkout: reconcile: order claimed by another")
)

type sentinel string

func (s sentinel) Error() string { return string(s) }

// Entry is a tracked order a Store hands out to be polled.
type Entry struct {
	// OrderID is the merchant's order id.
	OrderID string
	// Polls is how many polls found it not final so far.
	Polls int
	// Expires is when its window ends.
	Expires time.Time
}

// Store keeps the Reconciler's state: the tracked orders and when each is
// next polled, the claims, and the orders handled. Every method is one
// atomic step (redisstore makes each one Redis round trip); a claim is
// held under a token and ends when its lease does or its holder ends it.
type Store interface {
	// Track adds an order, due at due, whose window ends at expires;
	// nothing when it is tracked or handled already.
	Track(ctx context.Context, orderID string, due, expires time.Time) error
	// ClaimDue claims up to n tracked orders due by now that no one holds,
	// each under token for lease, and puts them off until now+lease.
	ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]Entry, error)
	// Claim claims one order under token for lease, tracked or not:
	// ErrHandled when its final status was handled, ErrBusy when another
	// holds it.
	Claim(ctx context.Context, orderID, token string, lease time.Duration) error
	// Extend renews token's claim for lease from now, and puts the order
	// off as long; ErrBusy when token no longer holds it.
	Extend(ctx context.Context, orderID, token string, lease time.Duration) error
	// Done ends token's claim and the order's tracking and, when final,
	// records it handled for keep; not final (its window ended), a later
	// Claim still takes it. ErrBusy, doing nothing, unless token holds it.
	Done(ctx context.Context, orderID, token string, final bool, keep time.Duration) error
	// Release ends token's claim: a tracked order is due again at due,
	// after polls polls. Nothing happens when token no longer holds it.
	Release(ctx context.Context, orderID, token string, due time.Time, polls int) error
}

// memoryStore is the Store of one process (Config.Store nil).
type memoryStore struct {
	mu     sync.Mutex
	orders map[string]*memEntry
	claims map[string]memClaim
	done   map[string]time.Time // until when it is remembered
}

type memEntry struct {
	Entry
	due time.Time
}

type memClaim struct {
	token string
	until time.Time
}

// NewMemoryStore returns a Store in memory, for one process: what it holds
// is lost when the process ends. It is safe for concurrent use.
func NewMemoryStore() Store {
	return &memoryStore{orders: map[string]*memEntry{}, claims: map[string]memClaim{}, done: map[string]time.Time{}}
}

func (m *memoryStore) Track(_ context.Context, id string, due, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.done[id]; !ok && m.orders[id] == nil {
		m.orders[id] = &memEntry{Entry{OrderID: id, Expires: expires}, due}
	}
	return nil
}

// holder returns the token that holds id now, "" when none.
func (m *memoryStore) holder(id string) string {
	if c, ok := m.claims[id]; ok && time.Now().Before(c.until) {
		return c.token
	}
	return ""
}

func (m *memoryStore) ClaimDue(_ context.Context, now time.Time, n int, token string, lease time.Duration) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, until := range m.done {
		if now.After(until) {
			delete(m.done, id)
		}
	}
	var out []Entry
	for id, e := range m.orders {
		if len(out) == n {
			break
		}
		if e.due.After(now) || m.holder(id) != "" {
			continue
		}
		m.claims[id] = memClaim{token, time.Now().Add(lease)}
		e.due = now.Add(lease)
		out = append(out, e.Entry)
	}
	return out, nil
}

func (m *memoryStore) Claim(_ context.Context, id, token string, lease time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.done[id]; ok {
		return ErrHandled
	}
	if m.holder(id) != "" {
		return ErrBusy
	}
	m.claims[id] = memClaim{token, time.Now().Add(lease)}
	return nil
}

func (m *memoryStore) Extend(_ context.Context, id, token string, lease time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.holder(id) != token {
		return ErrBusy
	}
	until := time.Now().Add(lease)
	m.claims[id] = memClaim{token, until}
	if e := m.orders[id]; e != nil {
		e.due = until
	}
	return nil
}

func (m *memoryStore) Done(_ context.Context, id, token string, final bool, keep time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.holder(id) != token {
		return ErrBusy
	}
	if final {
		m.done[id] = time.Now().Add(keep)
	}
	delete(m.claims, id)
	delete(m.orders, id)
	return nil
}

func (m *memoryStore) Release(_ context.Context, id, token string, due time.Time, polls int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.holder(id) != token {
		return nil
	}
	delete(m.claims, id)
	if e := m.orders[id]; e != nil {
		e.due, e.Polls = due, polls
	}
	return nil
}
