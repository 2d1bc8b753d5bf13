// Package redisstore is a [reconcile.Store] on Redis, for a Reconciler run
// by several replicas: every replica sees every tracked order, claim and
// handled order, so no two poll one order at once and Handle runs once.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis:6379"})
//	store, err := redisstore.New(redisstore.Config{Client: rdb})
//	rec, err := reconcile.New(client, reconcile.Config{Handle: fulfil, Store: store})
//
// Keys, under Prefix: "due", a sorted set of the tracked orders by the
// time they are next polled (Unix milliseconds); "o:<id>", a hash of an
// order's polls and window end; "c:<id>", a claim holding its random token,
// set only when absent and with the lease as expiry; "d:<id>", an order
// whose final status was handled, with the Reconciler's Remember as expiry.
// Each Store method is one Lua script, so one round trip and one atomic
// step: a claim is renewed, ended or turned into "handled" only while it
// still holds its owner's token (compare-and-delete, as webhook/redisdedup
// does), so a replica whose lease ran out cannot end the claim of the one
// that took over.
//
// The scripts touch the due set and an order's keys together, so on Redis
// Cluster they must all be in one slot: the Prefix must hold a hash tag
// ("{shop-1}:"). New puts a Prefix without one in braces ("shop-1:" becomes
// "{shop-1:}"), and refuses one with braces that are not a hash tag.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/payorch/checkout-go/reconcile"
)

// DefaultPrefix is put before every key when Config.Prefix is empty.
const DefaultPrefix = "{checkout:reconcile}:"

// Config configures a Store.
type Config struct {
	// Client is the Redis connection: a *redis.Client, *redis.ClusterClient
	// or *redis.Ring. Required. The Store does not close it.
	Client redis.UniversalClient
	// Prefix is put before every key; "" means DefaultPrefix. Give each
	// merchant account its own. Without a {hash tag} it is put in braces.
	Prefix string
}

// Store is a reconcile.Store on Redis, safe for concurrent use by any
// number of processes sharing the Redis and the Prefix.
type Store struct {
	rdb    redis.UniversalClient
	prefix string
}

var _ reconcile.Store = (*Store)(nil)

// New returns a Store on cfg.Client. It does not contact Redis.
func New(cfg Config) (*Store, error) {
	switch {
	case cfg.Client == nil:
		return nil, errors.New("checkout: redisstore: new: Config.Client is required")
	case cfg.Prefix == "":
		cfg.Prefix = DefaultPrefix
	case !hasHashTag(cfg.Prefix) && strings.ContainsAny(cfg.Prefix, "{}"):
		return nil, fmt.Errorf("checkout: redisstore: new: Config.Prefix %q has braces but no {hash tag}", cfg.Prefix)
	case !hasHashTag(cfg.Prefix):
		cfg.Prefix = "{" + cfg.Prefix + "}"
	}
	return &Store{rdb: cfg.Client, prefix: cfg.Prefix}, nil
}

// hasHashTag tells whether Redis Cluster hashes every key starting with
// prefix by the same part of prefix: a "{" followed by a later "}", with
// something between them.
func hasHashTag(prefix string) bool {
	i := strings.IndexByte(prefix, '{')
	return i >= 0 && strings.IndexByte(prefix[i+1:], '}') > 0
}

func (s *Store) keys(id string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = s.prefix + n
		if n != "due" {
			out[i] += id
		}
	}
	return out
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// track: KEYS due, o:, d:; ARGV id, due, expires.
var track = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'polls', 0, 'exp', ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
`)

// Track adds an order (see reconcile.Store).
func (s *Store) Track(ctx context.Context, id string, due, expires time.Time) error {
	return wrap("track", track.Run(ctx, s.rdb, s.keys(id, "due", "o:", "d:"), id, ms(due), ms(expires)).Err())
}

// wrap names the operation that failed.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("checkout: redisstore: %s: %w", op, err)
}

// held reads a script's answer: 0 when the token did not hold the claim.
func held(op string, cmd *redis.Cmd) error {
	n, err := cmd.Int()
	if err == nil && n == 0 {
		return reconcile.ErrBusy
	}
	return wrap(op, err)
}

// claimDue: KEYS due; ARGV now, n, token, lease, prefix, now+lease. It
// looks past orders others hold, up to 10n, to claim n.
var claimDue = redis.NewScript(`
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 10 * ARGV[2])) do
	if #out >= tonumber(ARGV[2]) then break end
	if redis.call('SET', ARGV[5] .. 'c:' .. id, ARGV[3], 'NX', 'PX', ARGV[4]) then
		redis.call('ZADD', KEYS[1], ARGV[6], id)
		local m = redis.call('HMGET', ARGV[5] .. 'o:' .. id, 'polls', 'exp')
		table.insert(out, {id, m[1] or '0', m[2] or '0'})
	end
end
return out
`)

// ClaimDue claims the orders due (see reconcile.Store).
func (s *Store) ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]reconcile.Entry, error) {
	res, err := claimDue.Run(ctx, s.rdb, []string{s.prefix + "due"}, ms(now), n, token, lease.Milliseconds(), s.prefix, ms(now.Add(lease))).Slice()
	if err != nil {
		return nil, wrap("claim due", err)
	}
	out := make([]reconcile.Entry, 0, len(res))
	for _, r := range res {
		f, ok := r.([]any)
		if !ok || len(f) != 3 {
			return nil, errors.New("checkout: redisstore: claim due: unexpected reply")
		}
		id, p, e := fmt.Sprint(f[0]), fmt.Sprint(f[1]), fmt.Sprint(f[2])
		polls, _ := strconv.Atoi(p)
		exp, _ := strconv.ParseInt(e, 10, 64)
		out = append(out, reconcile.Entry{OrderID: id, Polls: polls, Expires: time.UnixMilli(exp)})
	}
	return out, nil
}

// claim: KEYS d:, c:; ARGV token, lease.
var claim = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 'done' end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'ok' end
return 'busy'
`)

// Claim claims one order (see reconcile.Store).
func (s *Store) Claim(ctx context.Context, id, token string, lease time.Duration) error {
	res, err := claim.Run(ctx, s.rdb, s.keys(id, "d:", "c:"), token, lease.Milliseconds()).Text()
	switch {
	case err != nil:
		return wrap("claim", err)
	case res == "done":
		return reconcile.ErrHandled
	case res == "busy":
		return reconcile.ErrBusy
	}
	return nil
}

// extend: KEYS c:, due; ARGV token, lease, id, now+lease.
var extend = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], 'XX', ARGV[4], ARGV[3])
return 1
`)

// Extend renews a claim (see reconcile.Store).
func (s *Store) Extend(ctx context.Context, id, token string, lease time.Duration) error {
	return held("extend", extend.Run(ctx, s.rdb, s.keys(id, "c:", "due"), token, lease.Milliseconds(), id, ms(time.Now().Add(lease))))
}

// done: KEYS c:, d:, o:, due; ARGV token, keep, id, final (1 or 0).
var done = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[4] == '1' then redis.call('SET', KEYS[2], '1', 'PX', ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[3])
return 1
`)

// Done ends a claim and records a final status handled (see
// reconcile.Store).
func (s *Store) Done(ctx context.Context, id, token string, final bool, keep time.Duration) error {
	return held("done", done.Run(ctx, s.rdb, s.keys(id, "c:", "d:", "o:", "due"), token, keep.Milliseconds(), id, final))
}

// release: KEYS c:, o:, due; ARGV token, due, polls, id.
var release = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[2]) == 1 then
	redis.call('HSET', KEYS[2], 'polls', ARGV[3])
	redis.call('ZADD', KEYS[3], ARGV[2], ARGV[4])
end
return 1
`)

// Release ends a claim (see reconcile.Store).
func (s *Store) Release(ctx context.Context, id, token string, due time.Time, polls int) error {
	return wrap("release", release.Run(ctx, s.rdb, s.keys(id, "c:", "o:", "due"), token, ms(due), polls, id).Err())
}
