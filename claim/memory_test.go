package claim

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

const hour = time.Hour

// A done key is forgotten when its keep ends; expired keys are swept when
// others are marked.
func TestMemoryKeep(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	m := NewMemory(MemoryConfig{Now: clk.Now})
	require.NoError(t, m.Done(ctx, "a", "", hour))
	clk.Add(59 * time.Minute)
	require.ErrorIs(t, m.Claim(ctx, "a", "t1", hour), ErrDone)
	clk.Add(time.Minute)
	require.NoError(t, m.Claim(ctx, "a", "t1", hour), "forgotten when its keep ends")
	require.NoError(t, m.Release(ctx, "a", "t1"))

	require.NoError(t, m.Done(ctx, "b", "", hour))
	clk.Add(2 * hour)
	require.NoError(t, m.Done(ctx, "c", "", hour))
	done, held, tracked := m.Len()
	require.Equal(t, [3]int{1, 0, 0}, [3]int{done, held, tracked})
}

// A keep too long for a time saturates: the key stays done instead of
// wrapping to a past expiry and being claimed again.
func TestMemoryKeepSaturates(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryConfig{Now: newClock().Now})
	require.NoError(t, m.Done(ctx, "a", "", time.Duration(math.MaxInt64)))
	require.ErrorIs(t, m.Claim(ctx, "a", "t1", hour), ErrDone)
}

// The leases are the store's clock's: a lapsed claim frees its key.
func TestMemoryLease(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	m := NewMemory(MemoryConfig{Now: clk.Now})
	require.NoError(t, m.Claim(ctx, "k", "t1", time.Minute))
	clk.Add(59 * time.Second)
	require.ErrorIs(t, m.Claim(ctx, "k", "t2", time.Minute), ErrBusy)
	clk.Add(time.Second)
	require.ErrorIs(t, m.Extend(ctx, "k", "t1", time.Minute), ErrBusy, "lapsed")
	require.NoError(t, m.Claim(ctx, "k", "t2", time.Minute))
}

func TestMemoryBounded(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryConfig{MaxDone: 3})
	for i := range 10 {
		require.NoError(t, m.Done(ctx, fmt.Sprint(i), "", hour))
		done, _, _ := m.Len()
		require.LessOrEqual(t, done, 3)
	}
	for i := 7; i < 10; i++ {
		require.ErrorIs(t, m.Claim(ctx, fmt.Sprint(i), "t", hour), ErrDone, "key %d is among the newest three", i)
	}
	require.NoError(t, m.Claim(ctx, "0", "t", hour), "the oldest was forgotten")

	// Held and tracked keys do not count and are never forgotten.
	m = NewMemory(MemoryConfig{MaxDone: 1})
	for i := range 5 {
		require.NoError(t, m.Claim(ctx, fmt.Sprint("f", i), "t", hour))
	}
	_, held, _ := m.Len()
	require.Equal(t, 5, held)
	require.ErrorIs(t, m.Claim(ctx, "f0", "u", hour), ErrBusy)
}

func TestMemoryStaleRecords(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	m := NewMemory(MemoryConfig{MaxDone: 10, Now: clk.Now})
	require.NoError(t, m.Done(ctx, "a", "", hour))
	clk.Add(30 * time.Minute)
	require.NoError(t, m.Done(ctx, "a", "", hour)) // marked again: the first record is stale
	clk.Add(31 * time.Minute)
	require.NoError(t, m.Done(ctx, "b", "", hour)) // sweeps the first record of "a"
	require.ErrorIs(t, m.Claim(ctx, "a", "t", hour), ErrDone, "the stale record must not forget the newer one")
	done, _, _ := m.Len()
	require.Equal(t, 2, done)

	// Thousands of keys through a small bound: the queue is compacted.
	m = NewMemory(MemoryConfig{MaxDone: 100})
	for i := range 5000 {
		require.NoError(t, m.Done(ctx, fmt.Sprint("k", i), "", hour))
	}
	done, _, _ = m.Len()
	require.Equal(t, 100, done)
	require.LessOrEqual(t, len(m.done.recs), 2*1024+100)
	require.ErrorIs(t, m.Claim(ctx, "k4999", "t", hour), ErrDone)
	require.NoError(t, m.Claim(ctx, "k4899", "t", hour))
}

// The record queue stays bounded even when stale records pile up faster
// than keeps end: one key marked again and again (a clock that does not
// move), and keys found expired by Claim.
func TestMemoryQueueBounded(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	m := NewMemory(MemoryConfig{MaxDone: 10, Now: clk.Now})
	for i := range 10_000 {
		require.NoError(t, m.Done(ctx, "same", "", hour))
		require.LessOrEqual(t, len(m.done.recs)-m.done.head, 2*10+64+1, "after %d re-marks", i)
	}
	require.ErrorIs(t, m.Claim(ctx, "same", "t", hour), ErrDone)
	for i := range 2000 {
		k := fmt.Sprint("e", i%5)
		require.NoError(t, m.Claim(ctx, k, "t", hour))
		require.NoError(t, m.Done(ctx, k, "t", hour))
		clk.Add(2 * hour) // every record expires before the next Done
		require.LessOrEqual(t, len(m.done.recs)-m.done.head, 2*10+64+1)
	}
	require.LessOrEqual(t, cap(m.done.recs), 4096, "the backing array does not grow without bound")
}

// The zero value works with the defaults; a nil one errors and never
// panics.
func TestMemoryZeroAndNil(t *testing.T) {
	ctx := context.Background()
	var zero Memory
	require.Nil(t, zero.Released("k"))
	require.NoError(t, zero.Claim(ctx, "k", "t", hour))
	require.NotNil(t, zero.Released("k"))
	require.NoError(t, zero.Done(ctx, "k", "t", hour))
	require.ErrorIs(t, zero.Claim(ctx, "k", "u", hour), ErrDone)
	var zero2 Memory
	require.NoError(t, zero2.Track(ctx, "o", time.Now(), time.Now()))
	_, _, tracked := zero2.Len()
	require.Equal(t, 1, tracked)

	var nilM *Memory
	require.NotPanics(t, func() {
		for _, err := range []error{
			nilM.Claim(ctx, "k", "t", hour), nilM.Extend(ctx, "k", "t", hour), nilM.Done(ctx, "k", "t", hour),
			nilM.Release(ctx, "k", "t"), nilM.Track(ctx, "k", time.Now(), time.Now()),
			nilM.Reschedule(ctx, "k", "t", time.Now(), 1), nilM.Untrack(ctx, "k", "t"),
		} {
			require.EqualError(t, err, "checkout: claim: nil *Memory (use NewMemory)")
		}
		_, err := nilM.ClaimDue(ctx, time.Now(), 1, "t", hour)
		require.Error(t, err)
		require.Nil(t, nilM.Released("k"))
		done, held, tracked := nilM.Len()
		require.Equal(t, [3]int{0, 0, 0}, [3]int{done, held, tracked})
	})
}

// Released wakes every waiter once the key is freed or done; a claim that
// lapses wakes them too when the key is taken again.
func TestMemoryReleased(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	m := NewMemory(MemoryConfig{Now: clk.Now})
	require.Nil(t, m.Released("k"), "not held")
	require.NoError(t, m.Claim(ctx, "k", "t1", time.Minute))
	a, b := m.Released("k"), m.Released("k")
	require.NotNil(t, a)
	require.NoError(t, m.Release(ctx, "k", "other"))
	select {
	case <-a:
		t.Fatal("another token released nothing")
	default:
	}
	require.NoError(t, m.Release(ctx, "k", "t1"))
	<-a
	<-b
	require.NoError(t, m.Claim(ctx, "k", "t2", time.Minute))
	c := m.Released("k")
	require.NoError(t, m.Done(ctx, "k", "t9", hour))
	<-c
	require.Nil(t, m.Released("k"), "done, not held")

	require.NoError(t, m.Claim(ctx, "l", "t1", time.Minute))
	d := m.Released("l")
	clk.Add(2 * time.Minute)
	require.NoError(t, m.Claim(ctx, "l", "t2", time.Minute))
	<-d
}

// A ClaimDue looks past held and done keys, and forgets tracking done.
func TestMemoryClaimDueSkips(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryConfig{})
	now := time.Now()
	for i := range 4 {
		require.NoError(t, m.Track(ctx, fmt.Sprint("o-", i), now.Add(time.Duration(i-10)*time.Millisecond), now.Add(hour)))
	}
	require.NoError(t, m.Claim(ctx, "o-0", "hook", hour))
	require.NoError(t, m.Claim(ctx, "o-1", "hook", hour))
	got, err := m.ClaimDue(ctx, now, 2, "t1", hour)
	require.NoError(t, err)
	require.Equal(t, []Entry{{Key: "o-2", Expires: now.Add(hour)}, {Key: "o-3", Expires: now.Add(hour)}}, got)
	got, err = m.ClaimDue(ctx, now, 2, "t2", hour)
	require.NoError(t, err)
	require.Empty(t, got, "o-0 and o-1 are held, o-2 and o-3 put off")
	require.NoError(t, m.Release(ctx, "o-0", "hook"))
	got, err = m.ClaimDue(ctx, now, 2, "t2", hour)
	require.NoError(t, err)
	require.Equal(t, "o-0", got[0].Key)
}
