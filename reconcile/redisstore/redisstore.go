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
// handled, with the Reconciler's Remember as expiry. Each Store method is
// one Lua script, so one round trip and one atomic step: a claim is ended
// or turned into "handled" only while it still holds its owner's token
// (compare-and-delete, as webhook/redisdedup does), so a replica whose lease
// ran out cannot end the claim of the one that took over. A replica that
// dies mid-poll leaves its claim to expire; the order was put off by the
// lease when claimed and is then due again for any replica.
//
// The default Prefix is a Redis Cluster hash tag, so that every key is in
// one slot and the scripts run on Cluster too.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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
	// merchant account its own.
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
	if cfg.Client == nil {
		return nil, errors.New("redisstore: new: Config.Client is required")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	return &Store{rdb: cfg.Client, prefix: cfg.Prefix}, nil
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
	return track.Run(ctx, s.rdb, s.keys(id, "due", "o:", "d:"), id, ms(due), ms(expires)).Err()
}

// claimDue: KEYS due; ARGV now, n, token, lease, prefix, now+lease.
var claimDue = redis.NewScript(`
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])) do
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
		return nil, err
	}
	out := make([]reconcile.Entry, 0, len(res))
	for _, r := range res {
		f, ok := r.([]any)
		if !ok || len(f) != 3 {
			return nil, errors.New("redisstore: claim due: unexpected reply")
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
		return err
	case res == "done":
		return reconcile.ErrHandled
	case res == "busy":
		return reconcile.ErrBusy
	}
	return nil
}

// done: KEYS c:, d:, o:, due; ARGV token, keep, id.
var done = redis.NewScript(`
local c = redis.call('GET', KEYS[1])
if c and c ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[3])
return 1
`)

// Done records an order handled (see reconcile.Store).
func (s *Store) Done(ctx context.Context, id, token string, keep time.Duration) error {
	n, err := done.Run(ctx, s.rdb, s.keys(id, "c:", "d:", "o:", "due"), token, keep.Milliseconds(), id).Int()
	if err == nil && n == 0 {
		err = reconcile.ErrBusy
	}
	return err
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
	return release.Run(ctx, s.rdb, s.keys(id, "c:", "o:", "due"), token, ms(due), polls, id).Err()
}
