package redisdedup_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
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

// quietLogger drops go-redis's log lines ("failed to dial …"), which the
// tests that stop Redis cause on purpose.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}
