package redisdedup_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/payorch/checkout-go/webhook"
	"github.com/payorch/checkout-go/webhook/redisdedup"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// These tests run against a real Redis:
//
//   - CHECKOUT_REDIS_ADDR=host:port uses a server that is already running
//     (each test uses keys under a prefix of its own and flushes nothing);
//   - otherwise a redis-server on PATH is started on a free loopback port
//     for each test and killed at its end.
//
// Without either they skip, saying how to run them, except under CI=true,
// where a missing Redis fails: CI must run them.
const addrEnv = "CHECKOUT_REDIS_ADDR"

const howToRun = "install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) so that redis-server is on PATH, " +
	"or point " + addrEnv + "=127.0.0.1:6379 at a running server, then: go test ./webhook/redisdedup/"

func noRedis(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI=true: these tests must run in CI; %s", why, howToRun)
	}
	t.Skipf("%s; skipping the Redis tests: %s", why, howToRun)
}

// redisServer is a redis-server process this test started.
type redisServer struct {
	t      testing.TB
	bin    string
	addr   string
	cmd    *exec.Cmd
	exited chan error // receives the process's end; nil when not running
}

// startRedis starts a redis-server of the test's own, on a free loopback
// port, without persistence; the test's end kills it.
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		noRedis(t, "redis-server is not on PATH")
	}
	for try := 0; ; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		_ = l.Close()
		s := &redisServer{t: t, bin: bin, addr: addr}
		err = s.start()
		if err == nil {
			t.Cleanup(s.stop)
			return s
		}
		if try == 4 {
			t.Fatalf("start redis-server: %v", err)
		}
	}
}

// start runs redis-server on s.addr and waits until it answers PING.
func (s *redisServer) start() error {
	_, port, _ := net.SplitHostPort(s.addr)
	s.cmd = exec.Command(s.bin, "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no",
		"--protected-mode", "yes", "--daemonize", "no", "--loglevel", "warning")
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.exited = make(chan error, 1)
	go func(cmd *exec.Cmd, exited chan error) { exited <- cmd.Wait() }(s.cmd, s.exited)
	c := redis.NewClient(&redis.Options{Addr: s.addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case werr := <-s.exited:
			s.exited = nil
			return fmt.Errorf("redis-server exited: %v", werr)
		default:
		}
		if time.Now().After(deadline) {
			s.stop()
			return fmt.Errorf("redis-server on %s did not answer PING: %v", s.addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the process, as a crash would, and waits for it to end.
func (s *redisServer) stop() {
	if s.exited == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.exited = nil
}

// restart starts the server again on the same address, empty.
func (s *redisServer) restart() {
	s.t.Helper()
	var err error
	for try := 0; try < 50; try++ { // the port may take a moment to be free again
		if err = s.start(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("restart redis-server on %s: %v", s.addr, err)
}

// redisAddr returns the address of a Redis for the test: CHECKOUT_REDIS_ADDR
// or a server of its own.
func redisAddr(t testing.TB) string {
	t.Helper()
	if a := os.Getenv(addrEnv); a != "" {
		c := redis.NewClient(&redis.Options{Addr: a})
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := c.Ping(ctx).Err(); err != nil {
			t.Fatalf("%s=%s does not answer PING: %v", addrEnv, a, err)
		}
		return a
	}
	return startRedis(t).addr
}

// newClient is a go-redis client of addr, closed at the test's end.
func newClient(t testing.TB, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// testPrefix keeps each test's keys apart on a shared server.
func testPrefix() string { return "checkout-test:" + rand.Text() + ":" }

// ledger counts, per event, the merchant function's calls and successes,
// and whether two calls for one event ever overlapped.
type ledger struct {
	calls, successes, running []atomic.Int32
	overlaps                  atomic.Int32
	failFirst                 []bool
}

func newLedger(n int) *ledger {
	return &ledger{calls: make([]atomic.Int32, n), successes: make([]atomic.Int32, n), running: make([]atomic.Int32, n), failFirst: make([]bool, n)}
}

// process is the merchant's function: events marked failFirst fail on
// their first call, as a database hiccup would.
func (l *ledger) process(_ context.Context, ev *webhook.Event) error {
	n, err := strconv.Atoi(strings.TrimPrefix(ev.ID, "evt_V2_"))
	if err != nil || n < 0 || n >= len(l.calls) {
		return fmt.Errorf("unexpected event %q", ev.ID)
	}
	if l.running[n].Add(1) != 1 {
		l.overlaps.Add(1)
	}
	defer l.running[n].Add(-1)
	if l.calls[n].Add(1) == 1 && l.failFirst[n] {
		return errors.New("first attempt fails")
	}
	l.successes[n].Add(1)
	return nil
}

// replicas starts n webhook receivers, each with its own Redis client and
// Deduplicator on one Redis and one prefix, as n instances behind a load
// balancer would be.
func replicas(t *testing.T, n int, addr string, fn func(context.Context, *webhook.Event) error, cfg redisdedup.Config, dupWait time.Duration) (urls []string, wcfg webhook.Config) {
	t.Helper()
	cfg.Prefix = testPrefix()
	for range n {
		cfg.Client = newClient(t, addr)
		d, err := redisdedup.New(cfg)
		require.NoError(t, err)
		wcfg = verifierConfig(d)
		wcfg.DuplicateWait = dupWait
		v, err := webhook.NewVerifier(wcfg)
		require.NoError(t, err)
		srv := httptest.NewServer(v.Handler(fn))
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
	}
	return urls, wcfg
}

// sender delivers webhooks as the service does: POST with the Basic
// credentials, re-sent after any reply but 200, a bounded number of times.
type sender struct {
	hc         *http.Client
	user, pass string
	posts      atomic.Int64
}

func newSender(t *testing.T, cfg webhook.Config) *sender {
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 64}
	t.Cleanup(tr.CloseIdleConnections)
	return &sender{hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}, user: cfg.Username, pass: cfg.Password}
}

// post sends body once and returns the status.
func (s *sender) post(url string, body []byte) (int, error) {
	s.posts.Add(1)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(s.user, s.pass)
	resp, err := s.hc.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// deliver re-sends body until a 200, at most 200 attempts.
func (s *sender) deliver(url string, body []byte) error {
	wait := time.Millisecond
	for attempt := 1; attempt <= 200; attempt++ {
		status, err := s.post(url, body)
		if err == nil && status == http.StatusOK {
			return nil
		}
		if err == nil && status != http.StatusInternalServerError && status != http.StatusConflict {
			return fmt.Errorf("unexpected status %d", status)
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
	return errors.New("no 200 after 200 attempts")
}

// swallowProxy forwards TCP to Redis; once armed, it drops the reply to
// the next command holding a claim ("inflight:") and breaks that
// connection, as a network cut just after Redis ran the command does.
type swallowProxy struct {
	addr  string
	armed atomic.Bool
	drops atomic.Int32
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
				if bytes.Contains(buf[:n], []byte("inflight:")) && p.armed.CompareAndSwap(true, false) {
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
