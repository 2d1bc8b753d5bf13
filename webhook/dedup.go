package webhook

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// DedupState is what a Deduplicator knows about an event key when a
// delivery begins.
type DedupState int

// The answers of Deduplicator.Begin. The zero value is not one of them.
const (
	// DedupNew: the caller now owns the key and must end with Done (after
	// the merchant's function succeeded) or Abandon (after it failed).
	DedupNew DedupState = iota + 1
	// DedupInFlight: another delivery owns the key and has not finished.
	DedupInFlight
	// DedupDone: the event was processed already.
	DedupDone
)

// String returns "new", "in-flight" or "done".
func (s DedupState) String() string {
	switch s {
	case DedupNew:
		return "new"
	case DedupInFlight:
		return "in-flight"
	case DedupDone:
		return "done"
	default:
		return "invalid"
	}
}

// DedupToken names one delivery's claim on an event key, so that Done and
// Abandon end that claim and never another delivery's. The empty token is
// no claim.
type DedupToken string

// Deduplicator remembers which events were processed, so that a duplicate
// delivery does not run the merchant's function twice and a failed one is
// processed again. The package doc states its contract; implementations
// (memory, package redisdedup, SQL) must be safe for concurrent use.
type Deduplicator interface {
	// Begin claims key (DedupNew and the claim's token), or reports
	// DedupInFlight or DedupDone with an empty token. An error makes
	// Handler reply 500 without calling the function.
	Begin(ctx context.Context, key string) (DedupState, DedupToken, error)
	// Done records key as processed and ends the claim token names.
	Done(ctx context.Context, key string, token DedupToken) error
	// Abandon ends the claim token names without recording key; it does
	// nothing when key is no longer held with that token.
	Abandon(ctx context.Context, key string, token DedupToken) error
}

// DedupWaiter is an optional interface of a Deduplicator that wakes a
// waiting duplicate when an in-flight key is released, instead of letting
// Handler poll Begin. MemoryDeduplicator implements it.
type DedupWaiter interface {
	// Released returns a channel closed when key, now in flight, is
	// released by Done or Abandon (in any process sharing the store), or
	// nil when key is not in flight. A closed channel means "ask Begin
	// again".
	Released(key string) <-chan struct{}
}

// Defaults of NewMemoryDeduplicator.
const (
	// DefaultDedupTTL is how long a processed key is remembered: 72 hours
	// (the service does not say how long it keeps re-sending).
	DefaultDedupTTL = 72 * time.Hour
	// DefaultDedupMaxEntries bounds the processed keys remembered: 100,000.
	DefaultDedupMaxEntries = 100_000
)

// MemoryDedupConfig sizes a MemoryDeduplicator.
type MemoryDedupConfig struct {
	// TTL is how long a processed key is remembered; 0 means
	// DefaultDedupTTL. A duplicate arriving later is processed again.
	TTL time.Duration
	// MaxEntries bounds the processed keys kept; 0 means
	// DefaultDedupMaxEntries. The oldest are forgotten first. Keys in flight
	// are not counted: there are never more than concurrent deliveries.
	MaxEntries int
	// Now replaces time.Now (tests). Nil means time.Now.
	Now func() time.Time
}

// MemoryDeduplicator is the default Deduplicator: one process's memory,
// bounded, with a TTL; use package redisdedup when several processes serve
// the webhook URL. The zero value is ready to use; a nil one answers every
// call with an error (Handler: 500). A processed key costs about 35 bytes
// whatever its length (a 128-bit digest of it is kept).
type MemoryDeduplicator struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu       sync.Mutex
	inFlight map[string]flight
	claims   uint64 // claims made: the last token's number
	done     doneSet
}

// flight is a key's claim: its token, and a channel closed on release (nil
// until someone waits).
type flight struct {
	token    DedupToken
	released chan struct{}
}

// NewMemoryDeduplicator returns an empty MemoryDeduplicator. Negative sizes
// are treated as 0 (the defaults).
func NewMemoryDeduplicator(cfg MemoryDedupConfig) *MemoryDeduplicator {
	d := &MemoryDeduplicator{ttl: cfg.TTL, max: cfg.MaxEntries, now: cfg.Now}
	d.init()
	return d
}

// errNilDeduplicator is the error of every call on a nil
// *MemoryDeduplicator.
const errNilDeduplicator = sentinel("checkout: deduplicate webhook: nil *MemoryDeduplicator (use NewMemoryDeduplicator)")

// init gives a zero MemoryDeduplicator its map and defaults. d.mu must be
// held.
func (d *MemoryDeduplicator) init() {
	if d.inFlight == nil {
		d.inFlight = make(map[string]flight)
	}
	if d.ttl <= 0 {
		d.ttl = DefaultDedupTTL
	}
	if d.max <= 0 {
		d.max = DefaultDedupMaxEntries
	}
	d.max = min(d.max, maxDoneEntries)
	if d.now == nil {
		d.now = time.Now
	}
}

// Begin claims key (see Deduplicator). Its tokens number the claims made
// by d, so a token from an earlier claim on the key never matches a later
// one.
func (d *MemoryDeduplicator) Begin(_ context.Context, key string) (DedupState, DedupToken, error) {
	if d == nil {
		return 0, "", errNilDeduplicator
	}
	k := digest(key)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.init()
	if _, ok := d.inFlight[key]; ok {
		return DedupInFlight, "", nil
	}
	if rec, ok := d.done.lookup(k); ok {
		if d.now().UnixNano() < rec.expires {
			return DedupDone, "", nil
		}
		d.done.forget(k) // its record is now stale
	}
	d.claims++
	token := DedupToken(strconv.FormatUint(d.claims, 36))
	d.inFlight[key] = flight{token: token}
	return DedupNew, token, nil
}

// Released returns a channel closed when key, now in flight, is released
// (see DedupWaiter), or nil when key is not in flight.
func (d *MemoryDeduplicator) Released(key string) <-chan struct{} {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.inFlight[key]
	if !ok {
		return nil
	}
	if f.released == nil {
		f.released = make(chan struct{})
		d.inFlight[key] = f
	}
	return f.released
}

// release ends key's flight and wakes its waiters. d.mu must be held.
func (d *MemoryDeduplicator) release(key string) {
	if ch := d.inFlight[key].released; ch != nil {
		close(ch)
	}
	delete(d.inFlight, key)
}

// Done records key as processed for the TTL, and ends its flight whatever
// the token: the event is processed, so a delivery still waiting on it
// gets DedupDone.
func (d *MemoryDeduplicator) Done(_ context.Context, key string, _ DedupToken) error {
	if d == nil {
		return errNilDeduplicator
	}
	k := digest(key)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.init()
	now := d.now().UnixNano()
	d.release(key)
	// Forget expired keys, then the oldest, to stay within bounds.
	for r, ok := d.done.oldest(); ok && r.expires <= now; r, ok = d.done.oldest() {
		d.done.pop()
	}
	d.done.forget(k) // a re-recorded key leaves a stale record
	for d.done.n >= d.max {
		d.done.pop()
	}
	d.done.add(k, now+int64(d.ttl))
	d.done.tidy()
	return nil
}

// Abandon releases the claim token names on key, so that the next
// delivery is processed; a key not held with that token is left alone.
func (d *MemoryDeduplicator) Abandon(_ context.Context, key string, token DedupToken) error {
	if d == nil {
		return errNilDeduplicator
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, ok := d.inFlight[key]; ok && token != "" && f.token == token {
		d.release(key)
	}
	return nil
}

// Len returns the number of processed keys remembered and of keys in
// flight.
func (d *MemoryDeduplicator) Len() (done, inFlight int) {
	if d == nil {
		return 0, 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.done.n, len(d.inFlight)
}
