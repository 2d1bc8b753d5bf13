package pgclaim

import "strings"

// statements are the SQL of the contract's methods on one table. A key is
// free, held (state 'held', by holder) or done (state 'done') only while
// until is in the future by the database's clock (statement_timestamp(),
// one value per statement); past it, whatever state says, it is free. A
// tracked key has a due time. Every statement is safe against its own
// re-send: its outcome for the same arguments is the first one's.
type statements struct {
	claim, extend, done, release, track, claimDue, reschedule, untrack, sweep, marked, mark, isDone string
}

func newStatements(table string) statements {
	q := func(sql string) string { return strings.ReplaceAll(sql, "$t", table) }
	return statements{
		// $1 key, $2 token, $3 lease. The row is locked without waiting: a
		// transaction committing the key's mark answers busy at once. A key
		// inserted meanwhile by another (the INSERT did nothing) answers
		// 'again', and the statement is sent again.
		claim: q(`WITH cur AS (
	SELECT state, holder, until FROM $t WHERE key = $1 FOR UPDATE NOWAIT
), ins AS (
	INSERT INTO $t (key, state, holder, until)
	SELECT $1, 'held', $2, statement_timestamp() + $3::interval WHERE NOT EXISTS (SELECT FROM cur)
	ON CONFLICT (key) DO NOTHING
	RETURNING 'ok'::text AS r
), upd AS (
	UPDATE $t t SET state = 'held', holder = $2, until = statement_timestamp() + $3::interval
	FROM cur
	WHERE t.key = $1 AND (cur.until <= statement_timestamp() OR (cur.state = 'held' AND cur.holder = $2))
	RETURNING 'ok'::text AS r
)
SELECT coalesce((SELECT r FROM ins), (SELECT r FROM upd),
	(SELECT CASE WHEN state = 'done' THEN 'done' ELSE 'busy' END FROM cur), 'again')`),

		// $1 key, $2 token, $3 lease.
		extend: q(`WITH cur AS (
	SELECT state, holder, until FROM $t WHERE key = $1 FOR UPDATE
), upd AS (
	UPDATE $t t SET until = statement_timestamp() + $3::interval
	FROM cur
	WHERE t.key = $1 AND cur.state = 'held' AND cur.holder = $2 AND cur.until > statement_timestamp()
	RETURNING 'ok'::text AS r
)
SELECT coalesce((SELECT r FROM upd),
	(SELECT CASE WHEN state = 'done' AND until > statement_timestamp() THEN 'done' ELSE 'busy' END FROM cur), 'busy')`),

		// $1 key, $2 keep. A mark already there keeps the attempt it names.
		done: q(`INSERT INTO $t AS t (key, state, until) VALUES ($1, 'done', statement_timestamp() + $2::interval)
ON CONFLICT (key) DO UPDATE SET state = 'done', until = EXCLUDED.until, due = NULL, expires = NULL, polls = 0,
	holder = CASE WHEN t.state = 'done' AND t.until > statement_timestamp() THEN t.holder END`),

		// $1 key, $2 token.
		release: q(`UPDATE $t SET state = 'free', holder = NULL, until = '-infinity'
WHERE key = $1 AND state = 'held' AND holder = $2 AND until > statement_timestamp()`),

		// $1 key, $2 due, $3 expires.
		track: q(`INSERT INTO $t AS t (key, state, until, due, expires) VALUES ($1, 'free', '-infinity', $2, $3)
ON CONFLICT (key) DO UPDATE SET due = EXCLUDED.due, expires = EXCLUDED.expires, polls = 0
WHERE t.due IS NULL AND NOT (t.state = 'done' AND t.until > statement_timestamp())`),

		// $1 now, $2 n, $3 token, $4 lease, $5 now+lease: the keys claimed
		// are due again at $5, so a re-sent call finds them by due and
		// holder (prior), returns them first, and claims no more than n in
		// all.
		claimDue: q(`WITH prior AS (
	SELECT key FROM $t WHERE due = $5 AND state = 'held' AND holder = $3 AND until > statement_timestamp()
), pick AS (
	SELECT key, due FROM $t
	WHERE due <= $1 AND until <= statement_timestamp()
	ORDER BY due
	LIMIT greatest($2::integer - (SELECT count(*) FROM prior), 0)
	FOR UPDATE SKIP LOCKED
), upd AS (
	UPDATE $t t SET state = 'held', holder = $3, until = statement_timestamp() + $4::interval, due = $5
	FROM pick WHERE t.key = pick.key
	RETURNING t.key, t.polls, t.expires, pick.due
)
SELECT key, polls, expires, 1 AS batch, due FROM upd
UNION ALL
SELECT t.key, t.polls, t.expires, 0, t.due FROM $t t JOIN prior USING (key)
ORDER BY batch, due`),

		// $1 key, $2 token, $3 due, $4 polls.
		reschedule: q(`UPDATE $t SET state = 'free', holder = NULL, until = '-infinity',
	due = CASE WHEN due IS NOT NULL THEN $3::timestamptz END,
	polls = CASE WHEN due IS NOT NULL THEN $4::integer ELSE polls END
WHERE key = $1 AND state = 'held' AND holder = $2 AND until > statement_timestamp()`),

		// $1 key, $2 token.
		untrack: q(`UPDATE $t SET state = 'free', holder = NULL, until = '-infinity', due = NULL, expires = NULL, polls = 0
WHERE key = $1 AND state = 'held' AND holder = $2 AND until > statement_timestamp()`),

		// $1 batch size: untracked keys that ended, oldest first.
		sweep: q(`DELETE FROM $t WHERE key IN (
	SELECT key FROM $t WHERE due IS NULL AND until < statement_timestamp()
	ORDER BY until LIMIT $1 FOR UPDATE SKIP LOCKED)`),

		// $1 key: is it done now? (before running the merchant's function)
		isDone: q(`SELECT EXISTS (SELECT FROM $t WHERE key = $1 AND state = 'done' AND until > statement_timestamp())`),

		// $1 key, $2 attempt, $3 keep: the mark in the merchant's
		// transaction, written unless the key is done already. The row
		// lock makes a second transaction wait for the first's outcome,
		// then see its mark (READ COMMITTED re-reads the row).
		mark: q(`INSERT INTO $t AS t (key, state, holder, until) VALUES ($1, 'done', $2, statement_timestamp() + $3::interval)
ON CONFLICT (key) DO UPDATE SET state = 'done', holder = EXCLUDED.holder, until = EXCLUDED.until,
	due = NULL, expires = NULL, polls = 0
WHERE NOT (t.state = 'done' AND t.until > statement_timestamp())
RETURNING true`),

		// $1 key, $2 attempt: did that attempt's mark commit? FOR SHARE
		// waits for a commit still under way. No row: it did not.
		marked: q(`SELECT state = 'done' AND holder IS NOT DISTINCT FROM $2::text FROM $t WHERE key = $1 FOR SHARE`),
	}
}
