// Package claimtest checks a [claim.Store] (or a [claim.Claimer]) of your
// own, on your database say, against every rule of the contract that the
// webhook handler and the reconciler rely on, as the memory and Redis
// stores are checked:
//
//	func TestMyStore(t *testing.T) {
//		claimtest.Store(t, mystore.New(db))
//	}
//
// Give each check an empty store (a fresh schema or key prefix): Store
// asks ClaimDue for the keys due first, and another's tracked keys would
// come first. Each check takes about a second: leases and keeps of a tenth
// of a second are left to run out.
package claimtest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/payorch/checkout-go/claim"
)

// short is the lease or keep left to run out; wait outlasts it.
const (
	short = 150 * time.Millisecond
	wait  = 300 * time.Millisecond
	long  = time.Hour
)

// Claimer checks the rules of Claim, Extend, Done and Release (see the
// package doc of claim): claims exclude each other, a re-sent claim is the
// caller's own, a lease ends unless extended and a lapsed claim is never
// revived, only the holder releases, and a done key stays done, whoever
// holds it, until its keep ends.
func Claimer(t testing.TB, c claim.Claimer) {
	t.Helper()
	ctx := context.Background()
	k := keys()

	a := k("a")
	noErr(t, c.Claim(ctx, a, "t1", long), "claim a free key")
	noErr(t, c.Claim(ctx, a, "t1", long), "a claim re-sent with its token is the caller's own")
	isErr(t, c.Claim(ctx, a, "t2", long), claim.ErrBusy, "another token")
	noErr(t, c.Extend(ctx, a, "t1", long), "the holder extends")
	isErr(t, c.Extend(ctx, a, "t2", long), claim.ErrBusy, "only the holder extends")
	noErr(t, c.Release(ctx, a, "t2"), "another token's release does nothing")
	isErr(t, c.Claim(ctx, a, "t3", long), claim.ErrBusy, "still held by t1")
	noErr(t, c.Release(ctx, a, "t1"))
	noErr(t, c.Release(ctx, a, "t1"), "a release re-sent")
	noErr(t, c.Claim(ctx, a, "t3", long), "released: the next claim takes it")

	noErr(t, c.Done(ctx, a, "t4", long), "done whoever holds the claim")
	isErr(t, c.Claim(ctx, a, "t5", long), claim.ErrDone)
	isErr(t, c.Claim(ctx, a, "t3", long), claim.ErrDone, "the former holder too")
	isErr(t, c.Extend(ctx, a, "t3", long), claim.ErrDone)
	noErr(t, c.Done(ctx, a, "t3", long), "done again succeeds")
	noErr(t, c.Release(ctx, a, "t3"))
	isErr(t, c.Claim(ctx, a, "t5", long), claim.ErrDone, "a release leaves a done key done")
	b := k("b")
	noErr(t, c.Done(ctx, b, "", long), "a key never claimed can be marked done")
	isErr(t, c.Claim(ctx, b, "t1", long), claim.ErrDone)

	// Leases and keeps end.
	lapse, renewed, kept := k("lapse"), k("renewed"), k("kept")
	noErr(t, c.Claim(ctx, lapse, "t1", short))
	noErr(t, c.Claim(ctx, renewed, "t1", short))
	noErr(t, c.Done(ctx, kept, "t1", short))
	time.Sleep(short / 2)
	noErr(t, c.Extend(ctx, renewed, "t1", long))
	time.Sleep(wait)
	isErr(t, c.Extend(ctx, lapse, "t1", long), claim.ErrBusy, "a lapsed claim is not revived")
	noErr(t, c.Claim(ctx, lapse, "t2", long), "the lease ended: another takes the key")
	noErr(t, c.Release(ctx, lapse, "t1"), "the late holder's release")
	isErr(t, c.Claim(ctx, lapse, "t3", long), claim.ErrBusy, "leaves t2's claim alone")
	isErr(t, c.Claim(ctx, renewed, "t2", long), claim.ErrBusy, "an extended claim outlives its first lease")
	noErr(t, c.Claim(ctx, kept, "t2", long), "the keep ended: the key is free")

	// Keys are bytes: none shares another's state.
	odd := []string{k("Case"), k("case"), k("sp ace"), k("nul\x00"), k("ஆ"), k(string(make([]byte, 300)))}
	for _, key := range odd {
		noErr(t, c.Claim(ctx, key, "t1", long), fmt.Sprintf("key %q", key))
	}
	noErr(t, c.Done(ctx, odd[0], "t1", long))
	for _, key := range odd[1:] {
		noErr(t, c.Extend(ctx, key, "t1", long), fmt.Sprintf("key %q is still held, not done", key))
	}

	// Concurrent claims: one wins.
	race := k("race")
	var wins, busy int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			err := c.Claim(ctx, race, fmt.Sprint("r", i), long)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, claim.ErrBusy):
				busy++
			default:
				t.Errorf("claimtest: concurrent claim: %v", err)
			}
		})
	}
	wg.Wait()
	equal(t, [2]int{1, 31}, [2]int{wins, busy}, "of 32 concurrent claims exactly one wins")
}

// Store checks every rule of the contract: [Claimer]'s, then tracking.
// Track adds a key once; ClaimDue hands out each key due and free once,
// earliest first, puts it off for the lease, and skips keys held or done;
// Reschedule and Untrack act only for the holder; a key done or untracked
// is not handed out again.
func Store(t testing.TB, s claim.Store) {
	t.Helper()
	Claimer(t, s)
	ctx := context.Background()
	k := keys()
	now := time.Now()
	a, b := k("a"), k("b")
	noErr(t, s.Track(ctx, a, now.Add(-time.Second), now.Add(time.Hour)))
	noErr(t, s.Track(ctx, b, now.Add(time.Hour), now.Add(2*time.Hour)))
	noErr(t, s.Track(ctx, a, now.Add(-2*time.Second), now.Add(3*time.Hour)), "tracking again does nothing")

	got := claimDue(t, s, now, 10, "t1", long, a, b)
	equal(t, []string{a}, entryKeys(got), "only the key due")
	equal(t, 0, got[0].Polls)
	within(t, now.Add(time.Hour), got[0].Expires, "the first Track's window")
	equal(t, 0, len(claimDue(t, s, now, 10, "t2a", long, a, b)), "a is held")
	isErr(t, s.Claim(ctx, a, "t2", long), claim.ErrBusy, "ClaimDue's claim excludes Claim")
	got = claimDue(t, s, now.Add(3*time.Hour), 10, "t2", long, a, b)
	equal(t, []string{b}, entryKeys(got), "b is due; a is still held by t1")

	noErr(t, s.Reschedule(ctx, a, "t9", now, 5), "not the holder: nothing")
	isErr(t, s.Claim(ctx, a, "t3", long), claim.ErrBusy)
	noErr(t, s.Reschedule(ctx, a, "t1", now.Add(time.Minute), 3))
	equal(t, 0, len(claimDue(t, s, now, 10, "t3a", long, a)), "due only in a minute")
	got = claimDue(t, s, now.Add(time.Minute), 10, "t3", short, a)
	equal(t, []string{a}, entryKeys(got))
	equal(t, 3, got[0].Polls, "the count Reschedule gave")

	time.Sleep(wait) // t3's lease ends: its replica died
	got = claimDue(t, s, now.Add(2*time.Minute), 10, "t4", long, a)
	equal(t, []string{a}, entryKeys(got), "a lapsed claim's key is handed out again")
	noErr(t, s.Done(ctx, a, "t3", long), "done by the late holder: the work happened")
	noErr(t, s.Track(ctx, a, now, now.Add(time.Hour)), "a done key is not tracked again")
	equal(t, 0, len(claimDue(t, s, now.Add(5*time.Hour), 10, "t5", long, a)), "done: never handed out")
	noErr(t, s.Reschedule(ctx, a, "t4", now, 1), "the claim ended with Done")
	equal(t, 0, len(claimDue(t, s, now.Add(5*time.Hour), 10, "t5a", long, a)), "still done")

	// A webhook's Claim on a tracked key: ClaimDue waits for its release.
	c := k("c")
	noErr(t, s.Track(ctx, c, now, now.Add(time.Hour)))
	noErr(t, s.Claim(ctx, c, "hook", long))
	equal(t, 0, len(claimDue(t, s, now, 10, "t6a", long, c)), "held by the webhook")
	noErr(t, s.Release(ctx, c, "hook"))
	equal(t, []string{c}, entryKeys(claimDue(t, s, now, 10, "t6", long, c)), "released, due as before")

	// The window ends: Untrack, not done; a webhook still claims it.
	noErr(t, s.Untrack(ctx, c, "t9"), "not the holder: nothing")
	isErr(t, s.Claim(ctx, c, "hook", long), claim.ErrBusy)
	noErr(t, s.Untrack(ctx, c, "t6"))
	equal(t, 0, len(claimDue(t, s, now.Add(5*time.Hour), 10, "t7", long, c)), "untracked")
	noErr(t, s.Claim(ctx, c, "hook", long), "not done")
	noErr(t, s.Release(ctx, c, "hook"))
	noErr(t, s.Track(ctx, c, now, now.Add(time.Hour)), "tracked anew")
	got = claimDue(t, s, now, 10, "t8", long, c)
	equal(t, []string{c}, entryKeys(got))
	equal(t, 0, got[0].Polls, "anew: no polls")

	// n bounds a batch; the earliest due come first.
	var many []string
	for i := range 5 {
		many = append(many, k(fmt.Sprint("m", i)))
		noErr(t, s.Track(ctx, many[i], now.Add(time.Duration(i-10)*time.Second), now.Add(time.Hour)))
	}
	equal(t, many[:2], entryKeys(claimDue(t, s, now, 2, "t9", long, many...)), "the two due first")

	// Concurrent ClaimDue: every key once.
	var race []string
	for i := range 40 {
		race = append(race, k(fmt.Sprint("r", i)))
		noErr(t, s.Track(ctx, race[i], now.Add(-time.Second), now.Add(time.Hour)))
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				got, err := s.ClaimDue(ctx, now, 3, rand.Text(), long)
				if err != nil {
					t.Errorf("claimtest: concurrent ClaimDue: %v", err)
					return
				}
				mu.Lock()
				for _, e := range got {
					seen[e.Key]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, key := range race {
		equal(t, 1, seen[key], fmt.Sprintf("key %q handed out once", key))
	}
}

// keys returns a function naming keys of this run, apart from any other.
func keys() func(string) string {
	run := rand.Text()[:10]
	return func(name string) string { return "claimtest:" + run + ":" + name }
}

// claimDue calls ClaimDue and keeps only the entries of the keys given
// (the store may hold others').
func claimDue(t testing.TB, s claim.Store, now time.Time, n int, token string, lease time.Duration, only ...string) []claim.Entry {
	t.Helper()
	got, err := s.ClaimDue(context.Background(), now, n, token, lease)
	noErr(t, err, "ClaimDue")
	var out []claim.Entry
	for _, e := range got {
		if slices.Contains(only, e.Key) {
			out = append(out, e)
		}
	}
	return out
}

func entryKeys(es []claim.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Key)
	}
	return out
}

func noErr(t testing.TB, err error, msg ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("claimtest: unexpected error: %v %v", err, msg)
	}
}

func isErr(t testing.TB, err, want error, msg ...string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("claimtest: got error %v, want %v %v", err, want, msg)
	}
}

func equal(t testing.TB, want, got any, msg ...string) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("claimtest: got %v, want %v %v", got, want, msg)
	}
}

func within(t testing.TB, want, got time.Time, msg string) {
	t.Helper()
	if d := got.Sub(want); d > time.Millisecond || d < -time.Millisecond {
		t.Fatalf("claimtest: got %v, want %v (to the millisecond) %s", got, want, msg)
	}
}
