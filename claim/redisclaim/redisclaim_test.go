package redisclaim_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/claim/claimtest"
	"github.com/payorch/checkout-go/claim/redisclaim"
	"github.com/payorch/checkout-go/internal/redistest"
	"github.com/payorch/checkout-go/validation"
	"github.com/payorch/checkout-go/webhook"
)

// newClient is a go-redis client of addr, closed at the test's end.
func newClient(t testing.TB, addr string, hooks ...redis.Hook) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second})
	for _, h := range hooks {
		c.AddHook(h)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// testPrefix keeps each test's keys apart on a shared server.
func testPrefix() string { return "t:" + rand.Text()[:12] + ":" }

func newStore(t testing.TB, cfg redisclaim.Config) *redisclaim.Store {
	t.Helper()
	if cfg.Prefix == "" {
		cfg.Prefix = testPrefix()
	}
	s, err := redisclaim.New(cfg)
	require.NoError(t, err)
	return s
}

// The Redis store keeps every rule of the contract.
func TestContract(t *testing.T) {
	claimtest.Store(t, newStore(t, redisclaim.Config{Client: newClient(t, redistest.Addr(t))}))
}

func TestNew(t *testing.T) {
	_, err := redisclaim.New(redisclaim.Config{Timeout: -1, Recovery: -1, Prefix: "shop}{1:"})
	require.EqualError(t, err, "checkout: redisclaim: new: Config.Client: is required; Config.Timeout: must not be negative; "+
		`Config.Recovery: must not be negative; Config.Prefix: "shop}{1:" has braces but no {hash tag}`)
	var ce *validation.ConfigError
	require.ErrorAs(t, err, &ce)
	require.ErrorIs(t, err, validation.ErrInvalidRequest, "the SDK's one validation error")
	var nilClient *redis.Client
	_, err = redisclaim.New(redisclaim.Config{Client: nilClient})
	require.EqualError(t, err, "checkout: redisclaim: new: Config.Client: is required", "a typed nil is no client")
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}) // nothing listens
	defer rdb.Close()
	_, err = redisclaim.New(redisclaim.Config{Client: rdb, Timeout: 30 * time.Second})
	require.EqualError(t, err, "checkout: redisclaim: new: Config.Recovery: (10s) must be longer than Config.Timeout (30s)")
	s, err := redisclaim.New(redisclaim.Config{Client: rdb, Prefix: "shop:"})
	require.NoError(t, err)
	err = s.Track(context.Background(), "a", time.Now(), time.Now())
	require.ErrorContains(t, err, "checkout: redisclaim: track: ")
	require.Error(t, errors.Unwrap(err), "Redis's error is kept")

	var nilStore *redisclaim.Store
	require.NotPanics(t, func() {
		require.EqualError(t, nilStore.Claim(context.Background(), "k", "t", time.Second), "checkout: redisclaim: Store not configured (use New)")
		require.Error(t, nilStore.Done(context.Background(), "k", "t", time.Second))
	})
}

// hashTag is the part of key Redis Cluster hashes to find its slot.
func hashTag(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// On Redis Cluster a script's keys must share one slot: a Prefix without
// a hash tag is put in braces, so every key of the Store hashes alike.
func TestKeysShareOneSlot(t *testing.T) {
	addr := redistest.Addr(t)
	ctx := context.Background()
	for _, f := range []string{"shop-%s:", "{shop-%s}:"} {
		id := rand.Text()
		s := newStore(t, redisclaim.Config{Client: newClient(t, addr), Prefix: fmt.Sprintf(f, id)})
		now := time.Now()
		require.NoError(t, s.Track(ctx, "a", now, now.Add(time.Hour)))
		require.NoError(t, s.Track(ctx, "b", now, now.Add(time.Hour)))
		_, err := s.ClaimDue(ctx, now, 1, "t1", time.Hour)
		require.NoError(t, err)
		require.NoError(t, s.Claim(ctx, "c", "t2", time.Hour))
		require.NoError(t, s.Done(ctx, "d", "t2", time.Hour))
		keys, err := newClient(t, addr).Keys(ctx, "*"+id+"*").Result()
		require.NoError(t, err)
		require.Len(t, keys, 7, "epoch, due, t, a ClaimDue batch, k:a (claimed), k:c, k:d: %v", keys)
		for _, k := range keys {
			require.Contains(t, hashTag(k), id, k)
			require.Equal(t, hashTag(keys[0]), hashTag(k), k)
		}
	}
}

// A key holding what this package did not write is refused, never taken
// for a claim or a mark.
func TestRefusesForeignValues(t *testing.T) {
	ctx := context.Background()
	addr := redistest.Addr(t)
	prefix := "{" + rand.Text() + "}"
	require.NoError(t, newClient(t, addr).Set(ctx, prefix+"k:evt", "something else", time.Minute).Err())
	s := newStore(t, redisclaim.Config{Client: newClient(t, addr), Prefix: prefix})
	err := s.Claim(ctx, "evt", "t1", time.Minute)
	require.ErrorContains(t, err, "checkout: redisclaim: claim: ")
	require.ErrorContains(t, err, "did not write")
}

// swallowProxy forwards TCP to Redis; once armed with a marker, it drops
// the reply to the next command holding it and breaks that connection, as
// a network cut just after Redis ran the command does. go-redis then sends
// the command again.
type swallowProxy struct {
	addr   string
	marker atomic.Pointer[string]
	drops  atomic.Int32
}

func newSwallowProxy(t *testing.T, redisAddr string) *swallowProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	p := &swallowProxy{addr: l.Addr().String()}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.serve(c, redisAddr)
		}
	}()
	return p
}

func (p *swallowProxy) arm(marker string) { p.marker.Store(&marker) }

func (p *swallowProxy) serve(client net.Conn, redisAddr string) {
	defer client.Close()
	server, err := net.Dial("tcp", redisAddr)
	if err != nil {
		return
	}
	defer server.Close()
	var dropNext atomic.Bool
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := client.Read(buf)
			if n > 0 {
				if m := p.marker.Load(); m != nil && bytes.Contains(buf[:n], []byte(*m)) && p.marker.CompareAndSwap(m, nil) {
					dropNext.Store(true)
				}
				if _, werr := server.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				_ = server.Close()
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := server.Read(buf)
		if n > 0 && dropNext.Load() {
			p.drops.Add(1)
			return // the reply is lost and the connection broken
		}
		if n > 0 {
			if _, werr := client.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Every script answers its own re-send as the first run would have: a
// claim whose reply was lost is the caller's (the first Redis store of the
// reconciler answered "busy", so the order waited a lease, or ran twice),
// and a ClaimDue's batch comes back whole (it was lost for a lease).
func TestScriptsSafeAgainstTheirResend(t *testing.T) {
	ctx := context.Background()
	addr := redistest.Addr(t)
	proxy := newSwallowProxy(t, addr)
	client := redis.NewClient(&redis.Options{Addr: proxy.addr, MaxRetries: 3, DialTimeout: time.Second, ReadTimeout: time.Second})
	t.Cleanup(func() { _ = client.Close() })
	s := newStore(t, redisclaim.Config{Client: client})
	now := time.Now()
	// Warm up: every script loaded, so each lost reply is one Redis ran.
	require.NoError(t, s.Claim(ctx, "warm", "w", time.Minute))
	require.NoError(t, s.Extend(ctx, "warm", "w", time.Minute))
	require.NoError(t, s.Release(ctx, "warm", "w"))
	require.NoError(t, s.Track(ctx, "warm", now.Add(time.Hour), now.Add(time.Hour)))
	_, err := s.ClaimDue(ctx, now, 1, "w", time.Minute)
	require.NoError(t, err)
	require.NoError(t, s.Done(ctx, "warm", "w", time.Minute))

	proxy.arm("tok-claim")
	require.NoError(t, s.Claim(ctx, "evt", "tok-claim", time.Minute), "the claim Redis made for this call is this call's")
	require.EqualValues(t, 1, proxy.drops.Load(), "one reply was swallowed")
	require.ErrorIs(t, s.Claim(ctx, "evt", "other", time.Minute), claim.ErrBusy)

	for i := range 3 {
		require.NoError(t, s.Track(ctx, fmt.Sprint("o", i), now.Add(-time.Second), now.Add(time.Hour)))
	}
	proxy.arm("tok-due")
	got, err := s.ClaimDue(ctx, now, 2, "tok-due", time.Minute)
	require.NoError(t, err)
	require.EqualValues(t, 2, proxy.drops.Load())
	require.Len(t, got, 2, "the batch Redis claimed for this call")
	for _, e := range got {
		require.NoError(t, s.Extend(ctx, e.Key, "tok-due", time.Minute), "held by this call: %s", e.Key)
	}

	proxy.arm("key-done")
	require.NoError(t, s.Done(ctx, "key-done", "", time.Minute))
	require.ErrorIs(t, s.Claim(ctx, "key-done", "x", time.Minute), claim.ErrDone)
	proxy.arm("tok-release")
	require.NoError(t, s.Claim(ctx, "rel", "tok-release", time.Minute)) // its reply is swallowed, and re-sent
	require.NoError(t, s.Release(ctx, "rel", "tok-release"))
	require.NoError(t, s.Claim(ctx, "rel", "y", time.Minute), "released")
	require.EqualValues(t, 4, proxy.drops.Load())
	proxy.arm("tok-release")
	require.NoError(t, s.Release(ctx, "rel", "tok-release"), "a release re-sent")
	require.EqualValues(t, 5, proxy.drops.Load())
}

// A Redis that is down, or that accepts connections and never answers,
// fails every call within the Timeout.
func TestUnreachableOrHung(t *testing.T) {
	hung, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = hung.Close() })
	var (
		mu    sync.Mutex
		conns []net.Conn // read nothing, answer nothing
	)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	go func() {
		for {
			c, err := hung.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	down, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	downAddr := down.Addr().String()
	require.NoError(t, down.Close()) // nothing listens there now

	for name, addr := range map[string]string{"down": downAddr, "hung": hung.Addr().String()} {
		t.Run(name, func(t *testing.T) {
			s := newStore(t, redisclaim.Config{Client: newClient(t, addr), Timeout: 300 * time.Millisecond})
			start := time.Now()
			err := s.Claim(context.Background(), "k", "t", time.Minute)
			require.ErrorContains(t, err, "checkout: redisclaim: claim: ")
			require.Less(t, time.Since(start), 5*time.Second, "bounded by the Timeout, not by go-redis's own")
		})
	}
}

// FuzzKeys sends keys as a stranger's webhook body makes them
// (Event.DedupKey of any event name, id and body) and as any caller may
// pass them (any bytes) through a real Redis. Every key behaves alike:
// claimed once, busy for another token, released by its own token only,
// then done; and a key never shares its state with another.
func FuzzKeys(f *testing.F) {
	// Fuzzing runs the target in worker processes: they use the Redis the
	// first process started rather than start their own.
	addr := redistest.Addr(f)
	f.Setenv(redistest.AddrEnv, addr)
	client := newClient(f, addr)
	for _, seed := range []struct{ name, id, raw string }{
		{"ORDER_SUCCEEDED", "evt_V2_7c1b8e0f5a4d4e2b9f3a", `{"id":"evt_V2_7c1b8e0f5a4d4e2b9f3a","event_name":"ORDER_SUCCEEDED"}`},
		{"ORDER_REFUNDED", "", `{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"ord_1"}}}`},
		{"MANDATE:ACTIVATED", "evt 1", "c:x"},
		{"ORDER_FAILED", strings.Repeat("9", 200), "d"},
		{"", "ஆ\x00\r\n", "{*}[]%s KEYS[1] ' \" \\"},
	} {
		f.Add(seed.name, seed.id, seed.raw)
	}
	f.Fuzz(func(t *testing.T, name, id, raw string) {
		ctx := context.Background()
		s, err := redisclaim.New(redisclaim.Config{Client: client, Prefix: testPrefix()})
		require.NoError(t, err)
		keys := []string{
			(&webhook.Event{Name: name, ID: id}).DedupKey(),
			(&webhook.Event{Name: name, Raw: []byte(raw)}).DedupKey(),
			"order:" + raw,
		}
		seen := map[string]bool{}
		for _, k := range keys {
			if seen[k] {
				continue // the same key, already run
			}
			seen[k] = true
			require.NoError(t, s.Claim(ctx, k, "t1", time.Minute), "key %q is new", k)
			require.ErrorIs(t, s.Claim(ctx, k, "t2", time.Minute), claim.ErrBusy)
			require.NoError(t, s.Release(ctx, k, "t2"))
			require.ErrorIs(t, s.Claim(ctx, k, "t3", time.Minute), claim.ErrBusy, "another token releases nothing")
			require.NoError(t, s.Release(ctx, k, "t1"))
			require.NoError(t, s.Claim(ctx, k, "t4", time.Minute))
			require.NoError(t, s.Done(ctx, k, "t4", time.Minute))
			require.ErrorIs(t, s.Claim(ctx, k, "t5", time.Minute), claim.ErrDone)
		}
	})
}
