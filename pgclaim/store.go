package pgclaim

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/payorch/checkout-go/claim"
)

// lockNotAvailable is the SQLSTATE of a row locked by another transaction
// when the statement asked NOWAIT.
const lockNotAvailable = "55P03"

// call runs f within Timeout, after making sure the table is there, and
// names op in its error.
func (s *Store) call(ctx context.Context, name string, f func(context.Context) error) error {
	if s == nil || s.pool == nil {
		return errNilStore
	}
	if err := s.ensure(ctx); err != nil {
		return op(name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return op(name, f(ctx))
}

// exec runs one statement that answers nothing (s is not nil).
func (s *Store) exec(ctx context.Context, name, sql string, args ...any) error {
	return s.call(ctx, name, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, sql, args...)
		return err
	})
}

// Claim holds key for token during lease (see [claim.Claimer]). A key whose
// row another transaction has locked (one committing its mark) is busy.
func (s *Store) Claim(ctx context.Context, key, token string, lease time.Duration) error {
	var answer string
	err := s.call(ctx, "claim", func(ctx context.Context) error {
		for try := 0; ; try++ {
			err := s.pool.QueryRow(ctx, s.sql.claim, []byte(key), token, lease).Scan(&answer)
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == lockNotAvailable {
				answer = "busy"
				return nil
			}
			if err != nil || answer != "again" || try == 2 {
				return err
			}
		}
	})
	switch {
	case err != nil:
		return err
	case answer == "ok":
		s.maybeSweep(ctx)
		return nil
	case answer == "done":
		return claim.ErrDone
	}
	return claim.ErrBusy // "busy", or "again" three times: another keeps racing for the key
}

// Extend renews token's claim on key (see [claim.Claimer]).
func (s *Store) Extend(ctx context.Context, key, token string, lease time.Duration) error {
	var answer string
	if err := s.call(ctx, "extend", func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, s.sql.extend, []byte(key), token, lease).Scan(&answer)
	}); err != nil {
		return err
	}
	switch answer {
	case "ok":
		return nil
	case "done":
		return claim.ErrDone
	}
	return claim.ErrBusy
}

// Done marks key done for keep (see [claim.Claimer]).
func (s *Store) Done(ctx context.Context, key, _ string, keep time.Duration) error {
	if s == nil {
		return errNilStore
	}
	err := s.exec(ctx, "done", s.sql.done, []byte(key), max(keep, time.Millisecond))
	if err == nil {
		s.maybeSweep(ctx)
	}
	return err
}

// Release frees key if token holds it (see [claim.Claimer]).
func (s *Store) Release(ctx context.Context, key, token string) error {
	if s == nil {
		return errNilStore
	}
	return s.exec(ctx, "release", s.sql.release, []byte(key), token)
}

// Track tracks key (see [claim.Store]).
func (s *Store) Track(ctx context.Context, key string, due, expires time.Time) error {
	if s == nil {
		return errNilStore
	}
	return s.exec(ctx, "track", s.sql.track, []byte(key), due, expires)
}

// ClaimDue claims up to n tracked keys due by now (see [claim.Store]).
func (s *Store) ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]claim.Entry, error) {
	if n <= 0 {
		return nil, nil
	}
	// Microseconds, as the database keeps them, so that a re-sent call
	// finds its keys by their due time.
	again := now.Add(lease).Truncate(time.Microsecond)
	var out []claim.Entry
	err := s.call(ctx, "claim due", func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, s.sql.claimDue, now, n, token, lease, again)
		if err != nil {
			return err
		}
		out = out[:0]
		var key []byte
		var e claim.Entry
		var batch int
		var due time.Time
		_, err = pgx.ForEachRow(rows, []any{&key, &e.Polls, &e.Expires, &batch, &due}, func() error {
			e.Key = string(key)
			out = append(out, e)
			return nil
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.maybeSweep(ctx)
	return out, nil
}

// Reschedule frees key and sets when it is due (see [claim.Store]).
func (s *Store) Reschedule(ctx context.Context, key, token string, due time.Time, polls int) error {
	if s == nil {
		return errNilStore
	}
	return s.exec(ctx, "reschedule", s.sql.reschedule, []byte(key), token, due, polls)
}

// Untrack frees key and ends its tracking (see [claim.Store]).
func (s *Store) Untrack(ctx context.Context, key, token string) error {
	if s == nil {
		return errNilStore
	}
	return s.exec(ctx, "untrack", s.sql.untrack, []byte(key), token)
}

// String names the store's table, for logs.
func (s *Store) String() string {
	if s == nil {
		return "pgclaim.Store(nil)"
	}
	return fmt.Sprintf("pgclaim.Store(%s)", s.table)
}
