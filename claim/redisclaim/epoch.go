package redisclaim

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"
)

// DataLoss is what a Store tells Config.OnDataLoss (and logs) when it
// finds that Redis lost the data it wrote: a restart without persistence,
// a flush, a failover to an empty replica. The Store has then written back
// what it holds, tracks and marked done within its keep; every live
// replica does the same at its next call, while no claim is granted for
// Config.Recovery.
type DataLoss struct {
	// Done, Held and Tracked count the keys written back.
	Done, Held, Tracked int
	// Err is why the write-back failed; it is tried again at the next call.
	Err error
}

// batch is how many records one write-back call carries.
const batch = 500

// call runs script with the epoch arguments before args, and when Redis
// answers with another epoch, catches up (adopt) and runs it again. It
// returns the script's own answer.
func (s *Store) call(ctx context.Context, op string, script *redis.Script, keys []string, args ...any) (any, error) {
	keys = append([]string{s.prefix + "e", s.prefix + "r"}, keys...)
	for try := 0; ; try++ {
		known := s.knownEpoch()
		res, err := s.bounded(ctx, op, func(ctx context.Context) (any, error) {
			return script.Run(ctx, s.rdb, keys, append([]any{known, rand.Text(), s.recovery.Milliseconds()}, args...)...).Result()
		})
		if err != nil {
			return nil, err
		}
		epoch, ok := epochReply(res)
		if !ok {
			return res, nil
		}
		if try == 3 {
			return nil, fmt.Errorf("checkout: redisclaim: %s: Redis's epoch keeps changing (is something flushing it?)", op)
		}
		if err := s.adopt(ctx, known, epoch); err != nil {
			return nil, fmt.Errorf("checkout: redisclaim: %s: %w", op, err)
		}
	}
}

// epochReply reads the answer {'!epoch', e} of a script run under an
// epoch Redis does not have.
func epochReply(res any) (string, bool) {
	a, ok := res.([]any)
	if !ok || len(a) != 2 || a[0] != "!epoch" {
		return "", false
	}
	e, ok := a[1].(string)
	return e, ok
}

func (s *Store) knownEpoch() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epoch
}

// adopt moves the Store from the epoch it knew to Redis's. Knowing none,
// it just adopts it (first use); knowing another, Redis lost its data: the
// Store writes back its journal under the new epoch, says so, and only
// then adopts it. One write-back runs at a time; callers arriving meanwhile
// wait for it (or their ctx) and run again.
func (s *Store) adopt(ctx context.Context, known, epoch string) error {
	select {
	case s.adopting <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("waiting for the write-back of lost data: %w", ctx.Err())
	}
	defer func() { <-s.adopting }()
	s.mu.Lock()
	if s.epoch != known { // another caller caught up meanwhile
		s.mu.Unlock()
		return nil
	}
	if known == "" {
		s.epoch = epoch
		s.mu.Unlock()
		return nil
	}
	recs, done, held, tracked := s.journal.records(time.Now())
	s.mu.Unlock()

	loss := DataLoss{Done: done, Held: held, Tracked: tracked}
	// The write-back outlives the caller's context: other callers wait
	// for it, and it must not stop half-way because one went away.
	bg := context.WithoutCancel(ctx)
	for i := 0; i < len(recs) && loss.Err == nil; i += batch {
		args := []any{s.prefix}
		for _, r := range recs[i:min(i+batch, len(recs))] {
			args = append(args, r...)
		}
		keys := []string{s.prefix + "e", s.prefix + "r", s.prefix + "due", s.prefix + "t"}
		_, err := s.bounded(bg, "write back", func(ctx context.Context) (any, error) {
			res, err := writeBackScript.Run(ctx, s.rdb, keys, append([]any{epoch, rand.Text(), s.recovery.Milliseconds()}, args...)...).Result()
			if e, ok := epochReply(res); ok && err == nil {
				err = fmt.Errorf("redis's epoch changed again (to %.8s…) during the write-back", e)
			}
			return res, err
		})
		loss.Err = err
	}
	if loss.Err == nil {
		s.mu.Lock()
		s.epoch = epoch
		s.mu.Unlock()
	}
	s.report(ctx, loss)
	return loss.Err
}

// report says what happened through the Logger and OnDataLoss.
func (s *Store) report(ctx context.Context, loss DataLoss) {
	attrs := []slog.Attr{slog.Int("done", loss.Done), slog.Int("held", loss.Held), slog.Int("tracked", loss.Tracked),
		slog.Duration("recovery", s.recovery)}
	msg := "checkout: redisclaim: Redis lost its data (restarted without persistence, flushed, or failed over); this replica wrote back what it holds, tracks and marked done"
	if loss.Err != nil {
		attrs = append(attrs, slog.String("error", loss.Err.Error()))
		msg = "checkout: redisclaim: Redis lost its data; writing back what this replica holds, tracks and marked done failed, and is tried again at the next call"
	}
	s.log.LogAttrs(ctx, slog.LevelError, msg, attrs...)
	if s.onLoss != nil {
		s.onLoss(loss)
	}
}
