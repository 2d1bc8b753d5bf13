package testio

import (
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHelperProcess is the child process of TestRun: with the variable
// set it writes to both outputs and exits with code 3.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("TESTIO_CHILD") == "" {
		t.Skip("child process only")
	}
	os.Stdout.WriteString("out")
	os.Stderr.WriteString("err")
	os.Exit(3)
}

func TestRun(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "TESTIO_CHILD=1")
	r := Run(t, cmd)
	require.Equal(t, Result{Code: 3, Stdout: "out", Stderr: "err"}, r)

	r = Run(t, exec.Command(os.Args[0], "-test.run=^$"))
	require.Equal(t, 0, r.Code)
}

func TestSyncBufferConcurrentWrites(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("x"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	require.Len(t, b.String(), 800)
}
