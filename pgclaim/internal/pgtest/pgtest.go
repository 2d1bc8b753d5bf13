// Package pgtest runs the throwaway PostgreSQL clusters the tests of
// package pgclaim need, and a TCP proxy that cuts connections on demand.
// It is test-only code without testify.
//
// Start runs initdb into a fresh temporary folder and postgres on a free
// loopback port, as the process's child, stopped by its PID at the test's
// end. PostgreSQL refuses to run as root: a test run as root (CI, a
// container) runs both as the unprivileged user "nobody" (the folder is
// given to it). The binaries are looked for on PATH, then in
// /usr/lib/postgresql/*/bin (Debian's postgresql package) and
// /usr/local/pgsql/bin. Without them the tests skip, saying what to
// install, unless CHECKOUT_REQUIRE_POSTGRES=1, where they fail.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// RequireEnv, set to 1, makes a missing PostgreSQL fail the tests.
const RequireEnv = "CHECKOUT_REQUIRE_POSTGRES"

const howToInstall = "install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@16) " +
	"so that initdb and postgres are on PATH or in /usr/lib/postgresql/*/bin"

func noPostgres(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s, and %s=1: these tests must run; %s", why, RequireEnv, howToInstall)
	}
	t.Skipf("%s; skipping the PostgreSQL tests: %s", why, howToInstall)
}

// Options are how Start runs postgres.
type Options struct {
	// Durable keeps fsync on; off (the default), a crash of postgres still
	// loses nothing committed (the OS keeps the files), only a crash of
	// the machine would.
	Durable bool
}

// Server is a PostgreSQL cluster of the test's own.
type Server struct {
	t      testing.TB
	bin    string
	dir    string // the cluster's folder, owned by the user running it
	port   string
	opts   Options
	cred   *syscall.Credential // nil: run as this process's user
	cmd    *exec.Cmd
	exited chan error // receives the process's end; nil when not running
	// URL is a connection string for the database "postgres" as the
	// superuser "postgres" (trust authentication, loopback only).
	URL string
}

// Start creates a cluster in a temporary folder and runs it on a free
// loopback port; the test's end stops it and removes the folder.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	bin, err := findBin()
	if err != nil {
		noPostgres(t, err.Error())
	}
	s := &Server{t: t, bin: bin, opts: o}
	if os.Geteuid() == 0 {
		if s.cred, err = nobody(); err != nil {
			t.Fatalf("pgtest: running as root, PostgreSQL needs an unprivileged user: %v", err)
		}
	}
	base := os.TempDir()
	if fi, err := os.Stat(base); s.cred != nil && (err != nil || fi.Mode().Perm()&0o001 == 0) {
		base = "/tmp" // the unprivileged user must reach the folder
	}
	if s.dir, err = os.MkdirTemp(base, "pgtest-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(s.dir) })
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			t.Fatalf("pgtest: give %s to the unprivileged user: %v", s.dir, err)
		}
	}
	initdb := s.command(filepath.Join(bin, "initdb"), "-D", s.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("pgtest: initdb: %v\n%s", err, out)
	}
	for try := 0; ; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, s.port, _ = net.SplitHostPort(l.Addr().String())
		_ = l.Close()
		s.URL = "postgres://postgres@127.0.0.1:" + s.port + "/postgres?sslmode=disable"
		if err = s.start(); err == nil {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("pgtest: the end of postgres's log:\n%s", s.logTail())
				}
				s.Stop()
			})
			return s
		}
		if try == 4 {
			t.Fatalf("pgtest: start postgres: %v", err)
		}
	}
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

// command prepares a PostgreSQL program, as the unprivileged user when
// this process is root. Pdeathsig ends it if the test process dies.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Pdeathsig: syscall.SIGQUIT}
	return cmd
}

// findBin returns the folder of initdb and postgres.
func findBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "postgres")); err == nil {
			return filepath.Dir(p), nil
		}
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(found, func(a, b string) int { return version(b) - version(a) }) // newest first
	found = append(found, "/usr/local/pgsql/bin/initdb")
	for _, p := range found {
		if _, err := os.Stat(p); err == nil {
			return filepath.Dir(p), nil
		}
	}
	return "", fmt.Errorf("initdb is not on PATH nor in /usr/lib/postgresql/*/bin")
}

// version reads the major version of /usr/lib/postgresql/<v>/bin/initdb.
func version(p string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
	return v
}

// nobody returns the credentials of the user "nobody".
func nobody() (*syscall.Credential, error) {
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, err
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// start runs postgres on s.port and waits until it accepts connections.
func (s *Server) start() error {
	args := []string{"-D", s.data(), "-p", s.port, "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
		"-c", "shared_buffers=16MB", "-c", "max_connections=200", "-c", "log_min_messages=warning"}
	if !s.opts.Durable {
		args = append(args, "-c", "fsync=off", "-c", "full_page_writes=off")
	}
	s.cmd = s.command(filepath.Join(s.bin, "postgres"), args...)
	logFile, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.exited = make(chan error, 1)
	go func(cmd *exec.Cmd, exited chan error) { exited <- cmd.Wait() }(s.cmd, s.exited)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := pgconn.Connect(ctx, s.URL)
		cancel()
		if err == nil {
			_ = c.Close(context.Background())
			return nil
		}
		select {
		case werr := <-s.exited:
			s.exited = nil
			return fmt.Errorf("postgres exited: %v; its log: %s", werr, s.logTail())
		default:
		}
		if time.Now().After(deadline) {
			s.Stop()
			return fmt.Errorf("postgres on port %s does not accept connections: %v; its log: %s", s.port, err, s.logTail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *Server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-400):], "\n")
}

// Pid is the running postmaster's process id, 0 when it is not running.
func (s *Server) Pid() int {
	if s.exited == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Stop shuts the cluster down the fast way (SIGINT: open transactions roll
// back, a checkpoint is written) and waits for it.
func (s *Server) Stop() { s.signal(syscall.SIGINT) }

// Crash stops the cluster the immediate way (SIGQUIT: no checkpoint; the
// next start recovers from the WAL), as a crash of PostgreSQL would.
func (s *Server) Crash() { s.signal(syscall.SIGQUIT) }

func (s *Server) signal(sig syscall.Signal) {
	if s.exited == nil {
		return
	}
	_ = s.cmd.Process.Signal(sig)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.exited = nil
}

// Restart crashes the cluster (Crash) and starts it again on the same port
// and folder, with its data.
func (s *Server) Restart() {
	s.t.Helper()
	s.Crash()
	var err error
	for try := 0; try < 50; try++ { // the port may take a moment to be free again
		if err = s.start(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("pgtest: restart postgres on port %s: %v", s.port, err)
}
