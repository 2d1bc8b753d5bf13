// Package redisclaim is a [claim.Store] on Redis, for a webhook URL and a
// reconciler served by several replicas: every replica sees every claim,
// tracked key and done key, so an event or an order is handled once
// whichever replica it reaches. One Store serves both:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis:6379"})
//	store, err := redisclaim.New(redisclaim.Config{Client: rdb, Prefix: "shop-1:"})
//	v, err := webhook.NewVerifier(webhook.Config{…, Claims: store})
//	rec, err := reconcile.New(client, reconcile.Config{Handle: fulfil, Store: store})
//
// Each method is one Lua script, so one round trip and one atomic step;
// each is safe against its own re-send (go-redis sends a script again after
// a broken connection even when Redis ran it). Keys, under Prefix:
// "k:<key>" holds "c:<token>" (a claim, with the lease as expiry) or "d"
// (done, with the keep as expiry); "due" is a sorted set of the tracked
// keys by due time, "t" a hash of their polls and window end; "b:<token>"
// a ClaimDue's batch, for its re-send; "e" the epoch, "r" the recovery
// marker. On Redis Cluster the scripts need every key in one slot: a
// Prefix without a {hash tag} is put in braces.
//
// What Redis must be. The promise holds while Redis keeps what it was
// told: run it with persistence (appendonly yes; appendfsync always, as
// everysec may forget the last second of marks if Redis itself crashes)
// and maxmemory-policy noeviction (an evicted claim or mark is forgotten
// silently). If Redis loses its data anyway (restarted empty, flushed,
// failed over to an empty replica), the Store notices, since the epoch key
// is gone or new: it logs an error, calls Config.OnDataLoss, and writes
// back what this replica holds, tracks and marked done within its keep,
// while Redis grants no new claim for Config.Recovery, so that every live
// replica does the same at its next call. What a replica that died holds
// is lost with it: its orders may be handled again. Even with a perfect
// Redis, a replica killed after the work's effect and before its Done
// leaves the work to be done again: make it idempotent.
//
// Redis trouble never loses work. A call that Redis does not answer within
// Config.Timeout fails (the webhook handler answers 500, and the service
// re-sends; the reconciler tries again), and a Done is tried again until
// recorded.
package redisclaim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/validation"
)

// Defaults of Config's zero fields.
const (
	// DefaultPrefix is put before every key.
	DefaultPrefix = "{checkout}:"
	// DefaultTimeout bounds each call: 2 seconds.
	DefaultTimeout = 2 * time.Second
	// DefaultRecovery is how long no claim is granted after Redis lost its
	// data: 10 seconds.
	DefaultRecovery = 10 * time.Second
	// DefaultJournal bounds the done keys a Store remembers to write back:
	// 1,000,000 (about 100 bytes each).
	DefaultJournal = 1_000_000
)

// Config configures a Store.
type Config struct {
	// Client is the Redis connection: a *redis.Client, *redis.ClusterClient
	// or *redis.Ring. Required. The Store does not close it.
	Client redis.UniversalClient
	// Prefix is put before every key; "" means DefaultPrefix. Give each
	// merchant account its own. Without a {hash tag} it is put in braces.
	Prefix string
	// Timeout bounds each call, within the caller's context and whatever
	// the client's own timeouts; 0 means DefaultTimeout. Keep it well
	// below the service's webhook timeout.
	Timeout time.Duration
	// Recovery is how long, once a replica finds Redis lost its data, no
	// claim is granted, so that every live replica writes back its keys
	// first; 0 means DefaultRecovery. Make it longer than Timeout plus the
	// longest pause between two calls of a live replica (the reconciler's
	// Tick): a replica that first reaches the restarted Redis after it
	// ends may see its keys claimed by another.
	Recovery time.Duration
	// Journal bounds the done keys remembered for that write-back; 0 means
	// DefaultJournal, negative remembers nothing (data loss then goes
	// unrepaired, though still reported).
	Journal int
	// Logger hears of data loss (error); nil is slog.Default().
	Logger *slog.Logger
	// OnDataLoss, when set, is called after each write-back (see DataLoss).
	OnDataLoss func(DataLoss)
}

// Store is a claim.Store on Redis, safe for concurrent use by any number of
// processes sharing the Redis and the Prefix. Each process should have its
// own Store: it remembers what it wrote, to write it back after a loss.
type Store struct {
	rdb      redis.UniversalClient
	prefix   string
	timeout  time.Duration
	recovery time.Duration
	log      *slog.Logger
	onLoss   func(DataLoss)
	adopting chan struct{} // one catch-up with Redis's epoch at a time

	mu      sync.Mutex
	epoch   string
	journal *journal
}

var _ claim.Store = (*Store)(nil)

// New returns a Store on cfg.Client. It does not contact Redis: a replica
// may start while Redis is briefly away. A configuration it refuses is a
// *validation.ConfigError listing every setting refused.
func New(cfg Config) (*Store, error) {
	var v validation.Error
	if cfg.Client == nil || isNilPointer(cfg.Client) {
		v.Add("Config.Client", "is required")
	}
	if cfg.Timeout < 0 {
		v.Add("Config.Timeout", "must not be negative")
	}
	if cfg.Recovery < 0 {
		v.Add("Config.Recovery", "must not be negative")
	}
	timeout, recovery := cmp.Or(cfg.Timeout, DefaultTimeout), cmp.Or(cfg.Recovery, DefaultRecovery)
	if cfg.Timeout >= 0 && cfg.Recovery >= 0 && recovery <= timeout {
		v.Add("Config.Recovery", fmt.Sprintf("(%s) must be longer than Config.Timeout (%s)", recovery, timeout))
	}
	switch {
	case cfg.Prefix == "":
		cfg.Prefix = DefaultPrefix
	case !hasHashTag(cfg.Prefix) && strings.ContainsAny(cfg.Prefix, "{}"):
		v.Add("Config.Prefix", fmt.Sprintf("%q has braces but no {hash tag}", cfg.Prefix))
	case !hasHashTag(cfg.Prefix):
		cfg.Prefix = "{" + cfg.Prefix + "}"
	}
	if err := v.ConfigErr("redisclaim: new"); err != nil {
		return nil, err
	}
	if cfg.Journal == 0 {
		cfg.Journal = DefaultJournal
	}
	s := &Store{
		rdb: cfg.Client, prefix: cfg.Prefix, onLoss: cfg.OnDataLoss, adopting: make(chan struct{}, 1),
		timeout: timeout, recovery: recovery, log: cfg.Logger, journal: newJournal(cfg.Journal),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s, nil
}

// isNilPointer reports whether c is a typed nil pointer (a nil
// *redis.Client), which would panic on the first call.
func isNilPointer(c redis.UniversalClient) bool {
	v := reflect.ValueOf(c)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// hasHashTag tells whether Redis Cluster hashes every key starting with
// prefix by the same part of prefix: a "{" followed by a later "}", with
// something between them.
func hasHashTag(prefix string) bool {
	i := strings.IndexByte(prefix, '{')
	return i >= 0 && strings.IndexByte(prefix[i+1:], '}') > 0
}

const errNilStore = sentinel("checkout: redisclaim: Store not configured (use New)")

type sentinel string

func (e sentinel) Error() string { return string(e) }

// bounded runs f within Timeout and returns without waiting for a call
// still under way when Timeout passes (go-redis bounds socket reads by its
// own ReadTimeout unless the client sets ContextTimeoutEnabled).
func (s *Store) bounded(ctx context.Context, op string, f func(context.Context) (any, error)) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	type answer struct {
		res any
		err error
	}
	answers := make(chan answer, 1)
	go func() {
		res, err := f(ctx)
		answers <- answer{res, err}
	}()
	var a answer
	select {
	case a = <-answers:
	case <-ctx.Done():
		select {
		case a = <-answers: // it came in the same instant
		default:
			return nil, fmt.Errorf("checkout: redisclaim: %s: no answer from Redis: %w", op, ctx.Err())
		}
	}
	if a.err != nil {
		return nil, fmt.Errorf("checkout: redisclaim: %s: %w", op, a.err)
	}
	return a.res, nil
}

// answer reads a script's text answer.
func answer(op string, res any, err error) (string, error) {
	if err != nil {
		return "", err
	}
	v, ok := res.(string)
	if !ok {
		return "", fmt.Errorf("checkout: redisclaim: %s: unexpected answer %T", op, res)
	}
	return v, nil
}

func (s *Store) key(key string) string { return s.prefix + "k:" + key }

// Claim holds key for token during lease (see [claim.Claimer]).
func (s *Store) Claim(ctx context.Context, key, token string, lease time.Duration) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	now := time.Now()
	res, err := s.call(ctx, "claim", claimScript, []string{s.key(key)}, token, lease.Milliseconds())
	v, err := answer("claim", res, err)
	switch {
	case err != nil:
		// A claim Redis made after all would block the key for a lease.
		s.releaseLate(ctx, key, token)
		return err
	case v == "done":
		return claim.ErrDone
	case v == "busy":
		return claim.ErrBusy
	case v == "foreign":
		return fmt.Errorf("checkout: redisclaim: claim: key %q holds a value this package did not write; use another Prefix", s.key(key))
	}
	s.mu.Lock()
	s.journal.hold(key, token, now.Add(lease))
	s.mu.Unlock()
	return nil
}

// releaseLate releases token's claim on key in the background, in case the
// Claim that failed (no answer in time) was made after all.
func (s *Store) releaseLate(ctx context.Context, key, token string) {
	go func() {
		bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
		defer cancel()
		_ = s.Release(bg, key, token)
	}()
}

// Extend renews token's claim on key (see [claim.Claimer]).
func (s *Store) Extend(ctx context.Context, key, token string, lease time.Duration) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	now := time.Now()
	res, err := s.call(ctx, "extend", extendScript, []string{s.key(key), s.prefix + "due"},
		token, lease.Milliseconds(), key, now.Add(lease).UnixMilli())
	v, err := answer("extend", res, err)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch v {
	case "done":
		s.journal.unhold(key, token)
		return claim.ErrDone
	case "busy":
		s.journal.unhold(key, token)
		return claim.ErrBusy
	}
	s.journal.hold(key, token, now.Add(lease))
	return nil
}

// Done marks key done for keep (see [claim.Claimer]).
func (s *Store) Done(ctx context.Context, key, _ string, keep time.Duration) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	now := time.Now()
	if _, err := s.call(ctx, "done", doneScript, []string{s.key(key), s.prefix + "due", s.prefix + "t"}, max(keep.Milliseconds(), 1), key); err != nil {
		return err
	}
	s.mu.Lock()
	s.journal.markDone(key, now.Add(keep), now)
	s.mu.Unlock()
	return nil
}

// Release frees key if token holds it (see [claim.Claimer]).
func (s *Store) Release(ctx context.Context, key, token string) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	if _, err := s.call(ctx, "release", releaseScript, []string{s.key(key)}, token); err != nil {
		return err
	}
	s.mu.Lock()
	s.journal.unhold(key, token)
	s.mu.Unlock()
	return nil
}

// Track tracks key (see [claim.Store]).
func (s *Store) Track(ctx context.Context, key string, due, expires time.Time) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	res, err := s.call(ctx, "track", trackScript, []string{s.key(key), s.prefix + "due", s.prefix + "t"},
		key, due.UnixMilli(), expires.UnixMilli())
	v, err := answer("track", res, err)
	if err != nil || v == "done" {
		return err
	}
	s.mu.Lock()
	if _, ok := s.journal.tracked[key]; !ok || v == "ok" {
		s.journal.track(key, trackRec{due: due, expires: expires}, time.Now())
	}
	s.mu.Unlock()
	return nil
}

// ClaimDue claims up to n tracked keys due by now (see [claim.Store]).
func (s *Store) ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]claim.Entry, error) {
	if s == nil || s.rdb == nil {
		return nil, errNilStore
	}
	start := time.Now()
	res, err := s.call(ctx, "claim due", claimDueScript, []string{s.prefix + "due", s.prefix + "t", s.prefix + "b:" + token},
		now.UnixMilli(), n, token, lease.Milliseconds(), s.prefix, now.Add(lease).UnixMilli())
	if err != nil {
		return nil, err
	}
	rows, ok := res.([]any)
	if !ok {
		return nil, fmt.Errorf("checkout: redisclaim: claim due: unexpected answer %T", res)
	}
	out := make([]claim.Entry, 0, len(rows))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rows {
		f, ok := r.([]any)
		if !ok || len(f) != 2 {
			return nil, errors.New("checkout: redisclaim: claim due: unexpected answer")
		}
		id, _ := f[0].(string)
		info, _ := f[1].(string)
		p, e, _ := strings.Cut(info, ":")
		polls, _ := strconv.Atoi(p)
		exp, _ := strconv.ParseInt(e, 10, 64)
		out = append(out, claim.Entry{Key: id, Polls: polls, Expires: time.UnixMilli(exp)})
		s.journal.hold(id, token, start.Add(lease))
		s.journal.track(id, trackRec{due: now.Add(lease), expires: time.UnixMilli(exp), polls: polls}, start)
	}
	return out, nil
}

// Reschedule frees key and sets when it is due (see [claim.Store]).
func (s *Store) Reschedule(ctx context.Context, key, token string, due time.Time, polls int) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	if _, err := s.call(ctx, "reschedule", rescheduleScript, []string{s.key(key), s.prefix + "due", s.prefix + "t"},
		token, key, due.UnixMilli(), polls); err != nil {
		return err
	}
	s.mu.Lock()
	if h, ok := s.journal.held[key]; ok && h.token == token {
		s.journal.unhold(key, token)
		s.journal.reschedule(key, due, polls)
	}
	s.mu.Unlock()
	return nil
}

// Untrack frees key and ends its tracking (see [claim.Store]).
func (s *Store) Untrack(ctx context.Context, key, token string) error {
	if s == nil || s.rdb == nil {
		return errNilStore
	}
	if _, err := s.call(ctx, "untrack", untrackScript, []string{s.key(key), s.prefix + "due", s.prefix + "t"}, token, key); err != nil {
		return err
	}
	s.mu.Lock()
	if h, ok := s.journal.held[key]; ok && h.token == token {
		s.journal.unhold(key, token)
		delete(s.journal.tracked, key)
	}
	s.mu.Unlock()
	return nil
}
