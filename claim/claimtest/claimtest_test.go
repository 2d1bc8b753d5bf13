package claimtest_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/claim/claimtest"
)

// The memory store keeps every rule of the contract.
func TestMemory(t *testing.T) {
	t.Parallel()
	claimtest.Store(t, claim.NewMemory(claim.MemoryConfig{}))
}

// recorder is a testing.TB whose failures are kept, not reported: Fatalf
// ends the goroutine running the suite, as testing does.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// run runs check on s and returns the failures it found.
func run(t *testing.T, check func(testing.TB, claim.Store), s claim.Store) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() { defer close(done); check(r, s) }()
	<-done
	return r.failed
}

// Each store below breaks one rule; the suite must notice.
type (
	// resentIsBusy takes its own re-sent claim for another's (the defect
	// of the first Redis store).
	resentIsBusy struct{ *claim.Memory }
	// releaseAny releases whoever holds the key.
	releaseAny struct{ *claim.Memory }
	// revive renews a lapsed claim.
	revive struct {
		*claim.Memory
		mu     sync.Mutex
		tokens map[string]string
	}
	// doneOnlyHolder refuses a Done from another than the holder.
	doneOnlyHolder struct{ *claim.Memory }
	// dueTwice hands out due keys without claiming them.
	dueTwice struct{ *claim.Memory }
)

func (s resentIsBusy) Claim(ctx context.Context, key, token string, lease time.Duration) error {
	if s.Extend(ctx, key, token, lease) == nil {
		return claim.ErrBusy
	}
	return s.Memory.Claim(ctx, key, token, lease)
}

func (s releaseAny) Release(ctx context.Context, key, _ string) error {
	return s.Memory.Done(ctx, key, "", time.Nanosecond)
}

func (s *revive) Claim(ctx context.Context, key, token string, lease time.Duration) error {
	s.mu.Lock()
	s.tokens[key+token] = key
	s.mu.Unlock()
	return s.Memory.Claim(ctx, key, token, lease)
}

func (s *revive) Extend(ctx context.Context, key, token string, lease time.Duration) error {
	if err := s.Memory.Extend(ctx, key, token, lease); err != claim.ErrBusy {
		return err
	}
	s.mu.Lock()
	_, ok := s.tokens[key+token]
	s.mu.Unlock()
	if ok && s.Memory.Claim(ctx, key, token, lease) == nil {
		return nil
	}
	return claim.ErrBusy
}

func (s doneOnlyHolder) Done(ctx context.Context, key, token string, keep time.Duration) error {
	if err := s.Extend(ctx, key, token, time.Hour); err != nil && err != claim.ErrDone {
		return claim.ErrBusy
	}
	return s.Memory.Done(ctx, key, token, keep)
}

func (s dueTwice) ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]claim.Entry, error) {
	got, err := s.Memory.ClaimDue(ctx, now, n, token, lease)
	for _, e := range got {
		_ = s.Memory.Reschedule(ctx, e.Key, token, now, e.Polls)
	}
	return got, err
}

func TestSuiteCatchesBrokenStores(t *testing.T) {
	t.Parallel()
	mem := func() *claim.Memory { return claim.NewMemory(claim.MemoryConfig{}) }
	for name, s := range map[string]claim.Store{
		"re-sent claim is busy": resentIsBusy{mem()},
		"release by any token":  releaseAny{mem()},
		"lapsed claim revived":  &revive{Memory: mem(), tokens: map[string]string{}},
		"done only by holder":   doneOnlyHolder{mem()},
		"due keys handed twice": dueTwice{mem()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			failed := run(t, claimtest.Store, s)
			require.NotEmpty(t, failed, "the suite passed a broken store")
			t.Log(failed[0])
		})
	}
	require.Empty(t, run(t, claimtest.Store, mem()), "the memory store passes")
}
