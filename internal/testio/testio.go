// Package testio holds the I/O helpers tests in several packages share: a
// buffer a process or a logger writes while the test reads it, and running
// a command to its exit code and output. Only tests import it, and it
// imports no assertion library (a test of package wiretest checks both).
package testio

import (
	"bytes"
	"errors"
	"os/exec"
	"sync"
	"testing"
)

// SyncBuffer is a bytes.Buffer that is safe to write from one goroutine
// (a logger, a child process's output copier) while another reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what has been written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Result is how a command ended: its exit code and what it wrote.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Run runs cmd to its end, capturing its output, and returns its exit code
// with the output. A command that exits with a non-zero code is a Result,
// not a failure; one that cannot be started or waited for fails tb.
func Run(tb testing.TB, cmd *exec.Cmd) Result {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		tb.Fatalf("run %s: %v", cmd.Path, err)
	}
	return Result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}
