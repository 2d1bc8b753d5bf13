package redisclaim

import (
	"fmt"
	"testing"
	"time"
)

// The journal keeps what is worth writing back, and stays bounded: the
// newest done keys within their keep, live claims, tracked keys within
// their window; nothing at all when turned off.
func TestJournal(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	j := newJournal(3)
	for i := range 5 {
		j.markDone(fmt.Sprint("d", i), now.Add(time.Hour), now)
	}
	j.markDone("short", now.Add(time.Minute), now)
	j.hold("h", "tok", now.Add(time.Minute))
	j.hold("lapsed", "tok", now.Add(-time.Second))
	j.track("t", trackRec{due: now, expires: now.Add(time.Hour), polls: 2}, now)
	j.track("old", trackRec{due: now, expires: now.Add(-2 * trackSlack)}, now)
	j.hold("t", "tok2", now.Add(time.Minute))
	j.unhold("h", "other") // another token's release: kept

	recs, done, held, tracked := j.records(now.Add(30 * time.Second))
	if done != 3 || held != 2 || tracked != 1 {
		t.Fatalf("done %d held %d tracked %d, want 3 (d3, d4, short: d0-d2 bounded out), 2 (h, t), 1: %v", done, held, tracked, recs)
	}
	if _, _, held, _ := j.records(now.Add(2 * time.Minute)); held != 0 {
		t.Fatalf("%d claims written back after their lease", held)
	}
	if len(j.done) > 3 {
		t.Fatalf("%d done keys kept, bound 3", len(j.done))
	}
	for _, r := range recs {
		if r[0] == "t" && (r[1] != "t" || r[4] != 2) {
			t.Fatalf("tracked record %v", r)
		}
	}
	j.markDone("t", now.Add(time.Hour), now)
	if _, ok := j.tracked["t"]; ok {
		t.Fatal("a key marked done is no longer tracked")
	}
	if _, ok := j.held["t"]; ok {
		t.Fatal("nor held")
	}

	off := newJournal(-1)
	off.markDone("k", now.Add(time.Hour), now)
	off.hold("k", "t", now.Add(time.Hour))
	off.track("k", trackRec{expires: now.Add(time.Hour)}, now)
	if recs, _, _, _ := off.records(now); len(recs) != 0 {
		t.Fatalf("journal off keeps %v", recs)
	}
}
