// Package redisdedup is a [webhook.Deduplicator] on Redis, for a webhook URL
// served by several replicas behind a load balancer. With the default
// in-memory store each replica remembers only the events it processed
// itself, so a re-sent event that lands on another replica is processed
// twice; with this store every replica sees every claim.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis:6379"})
//	dedup, err := redisdedup.New(redisdedup.Config{Client: rdb})
//	if err != nil {
//		return err
//	}
//	v, err := webhook.NewVerifier(webhook.Config{
//		Username: user, Password: pass, Sources: webhook.ProductionSources,
//		Deduplicator: dedup,
//	})
//
// Each event's key holds one of two values: a claim ("inflight:<token>")
// set with SET NX semantics and a lease before the merchant's function
// runs, or "done" with the TTL once the function succeeded. The token is
// random and goes back to the delivery that made the claim (Begin returns
// it); a failed function deletes the claim only while it still holds that
// token (compare-and-delete in one script), so the service's re-send is
// processed and a claim that passed to another delivery after the lease
// ended is never released by the first one.
//
// Redis trouble never loses an event. When Redis cannot be reached, times
// out or restarts, Begin returns an error and the webhook handler replies
// 500 without running the function, so the service sends the event again
// later. If Redis fails just after the function succeeded, Done's error is
// logged by the handler and the reply is still 200 (the work is done); the
// claim then stays until its lease ends, duplicates meanwhile get 409 and
// are re-sent, and one arriving after the lease is processed again. A Redis
// that restarts without persistence forgets the events it held, which are
// then processed again if re-sent: the store gives at-least-once with
// duplicates suppressed, never at-most-once.
package redisdedup

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/payorch/checkout-go/webhook"
)

// Defaults of Config's zero fields.
const (
	// DefaultPrefix is put before every event key.
	DefaultPrefix = "checkout:webhook:"
	// DefaultLease is how long a claim lasts when its holder never ends it
	// (the replica crashed while the merchant's function ran): 5 minutes.
	DefaultLease = 5 * time.Minute
	// DefaultTimeout bounds each Redis call: 2 seconds.
	DefaultTimeout = 2 * time.Second
)

// Config configures a Deduplicator.
type Config struct {
	// Client is the Redis connection: a *redis.Client, *redis.ClusterClient
	// or *redis.Ring. Required. It is not closed by the Deduplicator.
	Client redis.UniversalClient
	// Prefix is put before every event key; "" means DefaultPrefix. Give
	// each webhook receiver (each merchant account) its own.
	Prefix string
	// TTL is how long a processed event is remembered; 0 means
	// webhook.DefaultDedupTTL. A re-send arriving later is processed again.
	TTL time.Duration
	// Lease bounds how long a claim blocks duplicates when its holder
	// never ends it; 0 means DefaultLease. Make it longer than the
	// merchant's function can take: a duplicate arriving after the lease
	// runs the function again while the first may still be running.
	Lease time.Duration
	// Timeout bounds each Begin, Done and Abandon, within the request's own
	// context and whatever the client's own timeouts; 0 means
	// DefaultTimeout. Done and Abandon try again within it after a failure.
	// Keep it well below the service's webhook timeout, so that a hung
	// Redis turns into a 500 the service re-sends.
	Timeout time.Duration
}

// Deduplicator is a webhook.Deduplicator whose claims and processed events
// live in Redis, shared by every process using the same Redis and Prefix.
// It is safe for concurrent use. It does not implement webhook.DedupWaiter:
// a duplicate waiting for the first delivery polls Begin.
type Deduplicator struct {
	rdb     redis.UniversalClient
	prefix  string
	ttl     time.Duration
	lease   time.Duration
	timeout time.Duration
}

var _ webhook.Deduplicator = (*Deduplicator)(nil)

// Values stored under an event key.
const (
	doneValue   = "done"
	claimPrefix = "inflight:"
)

// begin claims KEYS[1] with ARGV[1] for ARGV[2] milliseconds unless it
// holds a value, which it returns; "" means claimed. A key holding ARGV[1]
// is the caller's own claim: go-redis re-sends the script after a broken
// connection even when Redis already ran it.
var begin = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return '' end
if v then return v end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ''
`)

// abandon deletes KEYS[1] only while it holds the claim ARGV[1].
var abandon = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0
`)

// New returns a Deduplicator on cfg.Client. It does not contact Redis: a
// replica may start while Redis is briefly away, and each delivery until it
// is back gets a 500 and is re-sent.
func New(cfg Config) (*Deduplicator, error) {
	var problems []string
	if cfg.Client == nil {
		problems = append(problems, "Client is required")
	}
	if cfg.TTL < 0 {
		problems = append(problems, "TTL may not be negative")
	}
	if cfg.Lease < 0 {
		problems = append(problems, "Lease may not be negative")
	}
	if cfg.Timeout < 0 {
		problems = append(problems, "Timeout may not be negative")
	}
	if len(problems) > 0 {
		return nil, errors.New("checkout: new redis deduplicator: " + strings.Join(problems, "; "))
	}
	d := &Deduplicator{
		rdb: cfg.Client, prefix: cfg.Prefix, ttl: cfg.TTL, lease: cfg.Lease, timeout: cfg.Timeout,
	}
	if d.prefix == "" {
		d.prefix = DefaultPrefix
	}
	if d.ttl == 0 {
		d.ttl = webhook.DefaultDedupTTL
	}
	if d.lease == 0 {
		d.lease = DefaultLease
	}
	if d.timeout == 0 {
		d.timeout = DefaultTimeout
	}
	return d, nil
}

// Begin claims key for the caller (see webhook.Deduplicator) with a random
// token of 128 bits. Any Redis failure, or no answer within Timeout, is
// returned, so the handler replies 500 and the event is re-sent.
func (d *Deduplicator) Begin(ctx context.Context, key string) (webhook.DedupState, webhook.DedupToken, error) {
	if d == nil || d.rdb == nil {
		return 0, "", errNotConfigured
	}
	token := webhook.DedupToken(rand.Text())
	claim := claimPrefix + string(token)
	type answer struct {
		v   string
		err error
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	answers := make(chan answer, 1)
	go func() {
		v, err := begin.Run(ctx, d.rdb, []string{d.prefix + key}, claim, d.lease.Milliseconds()).Text()
		answers <- answer{v, err}
	}()
	var a answer
	select {
	case a = <-answers:
	case <-ctx.Done():
		// go-redis bounds socket reads by its own ReadTimeout unless the
		// client sets ContextTimeoutEnabled; do not wait that long. If the
		// claim is made after all, release it rather than let it block the
		// re-send for a whole lease.
		go func() {
			if late := <-answers; late.err == nil && late.v == "" {
				rctx, rcancel := context.WithTimeout(context.Background(), d.timeout)
				defer rcancel()
				_ = abandon.Run(rctx, d.rdb, []string{d.prefix + key}, claim).Err()
			}
		}()
		return 0, "", fmt.Errorf("checkout: deduplicate webhook: redis begin: no answer from Redis: %w", ctx.Err())
	}
	if a.err != nil {
		return 0, "", fmt.Errorf("checkout: deduplicate webhook: redis begin: %w", a.err)
	}
	switch {
	case a.v == "":
		return webhook.DedupNew, token, nil
	case a.v == doneValue:
		return webhook.DedupDone, "", nil
	case strings.HasPrefix(a.v, claimPrefix):
		return webhook.DedupInFlight, "", nil
	default:
		// Something else owns this key: never guess that it was processed.
		return 0, "", fmt.Errorf("checkout: deduplicate webhook: redis begin: key %q holds a value this package did not write; use another Prefix", d.prefix+key)
	}
}

// bounded runs f until it succeeds, trying again after a failure (a
// connection broken by a Redis restart fails once, then the client
// reconnects), and returns its last error when Timeout passes, without
// waiting for a call still under way (see Begin).
func (d *Deduplicator) bounded(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		wait := 10 * time.Millisecond
		for {
			err := f(ctx)
			if err == nil || ctx.Err() != nil {
				done <- err
				return
			}
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				done <- err
				return
			}
			wait = min(2*wait, 200*time.Millisecond)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("no answer from Redis: %w", ctx.Err())
	}
}

// Done records key as processed for the TTL, whoever holds its claim now
// (the merchant's function succeeded: the event is processed), which ends
// the caller's claim too.
func (d *Deduplicator) Done(ctx context.Context, key string, _ webhook.DedupToken) error {
	if d == nil || d.rdb == nil {
		return errNotConfigured
	}
	err := d.bounded(ctx, func(ctx context.Context) error {
		return d.rdb.Set(ctx, d.prefix+key, doneValue, d.ttl).Err()
	})
	if err != nil {
		return fmt.Errorf("checkout: deduplicate webhook: redis done: %w", err)
	}
	return nil
}

// Abandon releases the claim token names on key, so that the next
// delivery is processed. A claim that has meanwhile passed to another
// delivery (the lease ended), in this process or another, is left alone,
// and so is a key recorded as processed.
func (d *Deduplicator) Abandon(ctx context.Context, key string, token webhook.DedupToken) error {
	if d == nil || d.rdb == nil {
		return errNotConfigured
	}
	if token == "" {
		return nil // no claim: nothing to release
	}
	err := d.bounded(ctx, func(ctx context.Context) error {
		return abandon.Run(ctx, d.rdb, []string{d.prefix + key}, claimPrefix+string(token)).Err()
	})
	if err != nil {
		return fmt.Errorf("checkout: deduplicate webhook: redis abandon: %w (the claim ends with its lease)", err)
	}
	return nil
}

const errNotConfigured = sentinel("checkout: deduplicate webhook: redisdedup.Deduplicator not configured (use New)")

type sentinel string

func (s sentinel) Error() string { return string(s) }
