package claim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// dedupModel is the Memory store's claims and done keys written the plain
// way: whole keys in a map, records in a list. The real one keeps digests
// in an open-addressing index over a compacted record queue; both must
// answer every call alike.
type dedupModel struct {
	ttl      int64
	max      int
	inFlight map[string]bool
	done     map[string]int64 // key -> expiry
	order    []string         // live keys, oldest record first
}

func (m *dedupModel) claim(key string, now int64) error {
	if exp, ok := m.done[key]; ok {
		if now < exp {
			return ErrDone
		}
		m.drop(key)
	}
	if m.inFlight[key] {
		return ErrBusy
	}
	m.inFlight[key] = true
	return nil
}

func (m *dedupModel) drop(key string) {
	delete(m.done, key)
	for i, k := range m.order {
		if k == key {
			m.order = append(m.order[:i], m.order[i+1:]...)
			return
		}
	}
}

func (m *dedupModel) finish(key string, now int64) {
	delete(m.inFlight, key)
	for len(m.order) > 0 && m.done[m.order[0]] <= now {
		m.drop(m.order[0])
	}
	m.drop(key)
	for len(m.order) >= m.max {
		m.drop(m.order[0])
	}
	m.done[key] = now + m.ttl
	m.order = append(m.order, key)
}

func TestMemoryAgainstModel(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		keys, max, ops int
		ttl            time.Duration
	}{
		{keys: 40, max: 7, ops: 60_000, ttl: time.Minute},
		{keys: 6000, max: 2500, ops: 60_000, ttl: time.Hour},
		{keys: 300, max: 100_000, ops: 60_000, ttl: 30 * time.Second}, // the TTL, not the bound, forgets
	} {
		t.Run(fmt.Sprint(tc.keys, "/", tc.max), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.keys)))
			clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			d := NewMemory(MemoryConfig{MaxDone: tc.max, Now: clk.Now})
			m := &dedupModel{ttl: int64(tc.ttl), max: tc.max, inFlight: map[string]bool{}, done: map[string]int64{}}
			tokens := map[string]string{} // the claim of each key in flight
			for i := range tc.ops {
				key := fmt.Sprint("evt_", rng.IntN(tc.keys))
				now := clk.Now().UnixNano()
				switch r := rng.IntN(10); {
				case r < 6:
					tok := fmt.Sprint("t", i)
					got := d.Claim(ctx, key, tok, 1000*tc.ttl)
					require.Equal(t, m.claim(key, now), got, "op %d: Claim(%s)", i, key)
					if got == nil {
						tokens[key] = tok
					}
				case r < 8 || m.inFlight[key]:
					// Done also without a Begin: a re-record of a live key.
					require.NoError(t, d.Done(ctx, key, tokens[key], tc.ttl))
					delete(tokens, key)
					m.finish(key, now)
				default:
					require.NoError(t, d.Release(ctx, key, tokens[key]))
					delete(tokens, key)
					delete(m.inFlight, key)
				}
				done, inFlight, _ := d.Len()
				require.Equal(t, len(m.done), done, "op %d", i)
				require.Equal(t, len(m.inFlight), inFlight, "op %d", i)
				if rng.IntN(4) == 0 {
					clk.Add(time.Duration(rng.IntN(int(tc.ttl / 50))))
				}
			}
			require.LessOrEqual(t, len(d.done.recs)-d.done.head, 2*len(m.done)+64+1024)
		})
	}
}

// TestMemoryMillionIDs measures what a million remembered
// events cost: the bound is 64 MiB.
func TestMemoryMillionIDs(t *testing.T) {
	if testing.Short() || raceEnabled() {
		t.Skip("a single-goroutine measurement of a million records: it runs without -short and -race")
	}
	const ids = 1_000_000
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := NewMemory(MemoryConfig{MaxDone: ids})
	key := []byte("id:ORDER_SUCCEEDED:evt_V2_00000000000000000000000000000000")
	for i := range ids {
		// Event ids as the service writes them, 56-byte keys.
		n := i
		for j := len(key) - 1; n > 0; j-- {
			key[j] = "0123456789abcdef"[n%16]
			n /= 16
		}
		if err := d.Claim(ctx, string(key), "t", time.Minute); err != nil {
			t.Fatalf("id %d: %v", i, err)
		}
		_ = d.Done(ctx, string(key), "t", time.Hour)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	done, _, _ := d.Len()
	require.Equal(t, ids, done)
	err := d.Claim(ctx, "id:ORDER_SUCCEEDED:evt_V2_00000000000000000000000000000000", "u", time.Minute)
	require.ErrorIs(t, err, ErrDone, "the first id is still remembered")
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("1,000,000 distinct ids: %.1f MiB on the heap, %.1f bytes per id (bound 64 MiB)", float64(used)/(1<<20), float64(used)/ids)
	require.Less(t, used, int64(64<<20))
	runtime.KeepAlive(d)
}

// raceEnabled reports whether the test binary runs with the race
// detector, under which single-goroutine measurements skip.
func raceEnabled() bool {
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
