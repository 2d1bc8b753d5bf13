package redisclaim

import "time"

// journal is what one Store wrote to Redis and still counts on: its live
// claims, the keys it tracks (as far as it knows) and the keys it marked
// done within their keep. When Redis loses its data, the Store writes them
// back (writeBack), so that this replica's keys are neither lost nor
// handled twice. Guarded by Store.mu.
type journal struct {
	max     int // bounds done; <= 0: no journal
	held    map[string]heldRec
	tracked map[string]trackRec
	done    map[string]time.Time // until when
	order   []doneRec            // done keys in the order marked, for sweeping
	writes  int                  // since the last sweep of tracked
}

type heldRec struct {
	token string
	until time.Time
}

type trackRec struct {
	due, expires time.Time
	polls        int
}

type doneRec struct {
	key   string
	until time.Time
}

// trackSlack is how long after its window a tracked key is kept: the
// reconciler reports it at window end, so this only covers a late poll.
const trackSlack = time.Hour

func newJournal(max int) *journal {
	return &journal{max: max, held: map[string]heldRec{}, tracked: map[string]trackRec{}, done: map[string]time.Time{}}
}

func (j *journal) on() bool { return j.max > 0 }

func (j *journal) hold(key, token string, until time.Time) {
	if j.on() {
		j.held[key] = heldRec{token, until}
	}
}

// unhold forgets key's claim; with token, only that token's.
func (j *journal) unhold(key, token string) {
	if h, ok := j.held[key]; ok && (token == "" || h.token == token) {
		delete(j.held, key)
	}
}

func (j *journal) track(key string, r trackRec, now time.Time) {
	if !j.on() {
		return
	}
	j.tracked[key] = r
	if j.writes++; j.writes >= 1024 && j.writes >= len(j.tracked) {
		j.writes = 0
		for k, t := range j.tracked {
			if now.After(t.expires.Add(trackSlack)) {
				delete(j.tracked, k)
			}
		}
		for k, h := range j.held {
			if now.After(h.until) {
				delete(j.held, k)
			}
		}
	}
}

// reschedule records a tracked key's new due time and polls.
func (j *journal) reschedule(key string, due time.Time, polls int) {
	if t, ok := j.tracked[key]; ok {
		t.due, t.polls = due, polls
		j.tracked[key] = t
	}
}

func (j *journal) markDone(key string, until, now time.Time) {
	delete(j.held, key)
	delete(j.tracked, key)
	if !j.on() {
		return
	}
	for len(j.order) > 0 && (len(j.done) >= j.max || !now.Before(j.order[0].until)) {
		r := j.order[0]
		j.order[0] = doneRec{}
		j.order = j.order[1:]
		if u, ok := j.done[r.key]; ok && u.Equal(r.until) {
			delete(j.done, r.key)
		}
	}
	if len(j.order) == 0 {
		j.order = nil // let a long-grown array go
	}
	j.done[key] = until
	j.order = append(j.order, doneRec{key, until})
}

// records returns what to write back at now, in writeBackScript's form:
// done keys first, then claims, then tracked keys.
func (j *journal) records(now time.Time) (recs [][]any, done, held, tracked int) {
	for k, until := range j.done {
		if ms := until.Sub(now).Milliseconds(); ms > 0 {
			recs = append(recs, []any{"d", k, ms, "", ""})
			done++
		}
	}
	for k, h := range j.held {
		if ms := h.until.Sub(now).Milliseconds(); ms > 0 {
			recs = append(recs, []any{"c", k, h.token, ms, ""})
			held++
		}
	}
	for k, t := range j.tracked {
		if now.Before(t.expires.Add(trackSlack)) {
			recs = append(recs, []any{"t", k, t.due.UnixMilli(), t.expires.UnixMilli(), t.polls})
			tracked++
		}
	}
	return recs, done, held, tracked
}
