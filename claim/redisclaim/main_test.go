package redisclaim_test

import (
	"context"
	"os"
	"runtime/debug"
	"testing"

	"github.com/redis/go-redis/v9"
)

// quietLogger drops go-redis's log lines ("failed to dial …"), which the
// tests that stop Redis cause on purpose.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}

// underRace tells whether the test binary runs with the race detector,
// under which the load tests run a third of their work.
func underRace() bool {
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
