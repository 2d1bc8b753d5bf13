package pgclaim

import (
	"context"
	"time"
)

// sweepBatch bounds the rows one DELETE of a sweep removes.
const sweepBatch = 1000

// Sweep deletes the keys whose lease or keep ended and that are not
// tracked (they are free: deleting them changes no answer), a thousand
// rows per statement until none is left or ctx ends, and returns how many
// it deleted. The Store sweeps by itself every Config.SweepEvery; call it
// from a job of your own when that is negative.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	if s == nil || s.pool == nil {
		return 0, errNilStore
	}
	total := 0
	for {
		var n int64
		err := s.call(ctx, "sweep", func(ctx context.Context) error {
			tag, err := s.pool.Exec(ctx, s.sql.sweep, sweepBatch)
			n = tag.RowsAffected()
			return err
		})
		total += int(n)
		if err != nil || n < sweepBatch {
			return total, err
		}
	}
}

// maybeSweep starts a sweep in the background when the last one is older
// than SweepEvery and none is under way. It outlives ctx's cancellation,
// for at most a minute.
func (s *Store) maybeSweep(ctx context.Context) {
	if s.sweepEvery < 0 {
		return
	}
	last := s.lastSweep.Load()
	now := time.Now().UnixNano()
	if now-last < int64(s.sweepEvery) || !s.lastSweep.CompareAndSwap(last, now) || !s.sweeping.CompareAndSwap(false, true) {
		return
	}
	bg := context.WithoutCancel(ctx)
	go func() {
		defer s.sweeping.Store(false)
		sctx, cancel := context.WithTimeout(bg, time.Minute)
		defer cancel()
		if _, err := s.Sweep(sctx); err != nil {
			s.log.WarnContext(bg, "pgclaim: sweep of ended keys failed; the next one tries again", "table", s.table, "error", err)
		}
	}()
}
