// Package redistest runs the redis-server processes the tests of the claim
// stores need (internal/netfault cuts their connections on demand). It is
// test-only code without testify.
//
// A test gets a Redis from Addr (CHECKOUT_REDIS_ADDR, or a server of its
// own) or from Start (always its own: it may kill, restart or pause it by
// PID). Without redis-server on PATH the tests skip, saying what to
// install, except under CI=true, where they fail.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// AddrEnv names a running Redis the tests may share (each uses keys of its
// own and flushes nothing).
const AddrEnv = "CHECKOUT_REDIS_ADDR"

const howToRun = "install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) so that redis-server is on PATH, " +
	"or point " + AddrEnv + "=127.0.0.1:6379 at a running server"

func noRedis(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI=true: these tests must run in CI; %s", why, howToRun)
	}
	t.Skipf("%s; skipping the Redis tests: %s", why, howToRun)
}

// Addr returns the address of a Redis for the test: CHECKOUT_REDIS_ADDR,
// or a server of its own that the test's end kills.
func Addr(t testing.TB) string {
	t.Helper()
	if a := os.Getenv(AddrEnv); a != "" {
		return a
	}
	return Start(t, Options{}).Addr
}

// Options are how Start runs redis-server.
type Options struct {
	// Persist turns the append-only file on (fsync always), so that a
	// restart keeps every write; off, a restart starts empty.
	Persist bool
}

// Server is a redis-server process of the test's own.
type Server struct {
	t      testing.TB
	bin    string
	Addr   string
	dir    string
	opts   Options
	cmd    *exec.Cmd
	exited chan error // receives the process's end; nil when not running
	paused bool
}

// Start runs redis-server on a free loopback port; the test's end kills it.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		noRedis(t, "redis-server is not on PATH")
	}
	dir := t.TempDir()
	for try := 0; ; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s := &Server{t: t, bin: bin, Addr: l.Addr().String(), dir: dir, opts: o}
		_ = l.Close()
		if err = s.start(); err == nil {
			t.Cleanup(s.Kill)
			return s
		}
		if try == 4 {
			t.Fatalf("start redis-server: %v", err)
		}
	}
}

// start runs redis-server on s.Addr and waits until it answers PING.
func (s *Server) start() error {
	_, port, _ := net.SplitHostPort(s.Addr)
	args := []string{"--bind", "127.0.0.1", "--port", port, "--dir", s.dir, "--save", "", "--protected-mode", "yes",
		"--daemonize", "no", "--loglevel", "warning", "--maxmemory-policy", "noeviction"}
	if s.opts.Persist {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	s.cmd = exec.Command(s.bin, args...)
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.exited = make(chan error, 1)
	go func(cmd *exec.Cmd, exited chan error) { exited <- cmd.Wait() }(s.cmd, s.exited)
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
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
			s.Kill()
			return fmt.Errorf("redis-server on %s did not answer PING: %v", s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Pid is the running process's id, 0 when it is not running.
func (s *Server) Pid() int {
	if s.exited == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Kill kills the process (SIGKILL), as a crash would, and waits for it.
func (s *Server) Kill() {
	if s.exited == nil {
		return
	}
	if s.paused {
		_ = s.cmd.Process.Signal(syscall.SIGCONT)
		s.paused = false
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.exited = nil
}

// Restart kills the process and starts it again on the same address and
// folder: with Persist it comes back with its data, without it empty.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	var err error
	for try := 0; try < 50; try++ { // the port may take a moment to be free again
		if err = s.start(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("restart redis-server on %s: %v", s.Addr, err)
}

// Pause stops the process (SIGSTOP): Redis sleeps, connections stay open
// and nothing is answered, until Resume.
func (s *Server) Pause() {
	if s.exited != nil && !s.paused {
		_ = s.cmd.Process.Signal(syscall.SIGSTOP)
		s.paused = true
	}
}

// Resume wakes a paused process (SIGCONT).
func (s *Server) Resume() {
	if s.exited != nil && s.paused {
		_ = s.cmd.Process.Signal(syscall.SIGCONT)
		s.paused = false
	}
}

// quietLogger drops go-redis's log lines ("failed to dial …"), which the
// fault tests cause on purpose.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// Main is the TestMain of a package whose tests use Redis: it silences
// go-redis's logger and runs the tests.
func Main(m *testing.M) {
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}

// UnderRace tells whether the test binary runs with the race detector,
// under which the load tests run a third of their work.
func UnderRace() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}
