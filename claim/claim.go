// Package claim is the one contract behind the SDK's exactly-once
// promises. The webhook handler's dedupe (webhook.Config.Claims) and the
// reconciler's state (reconcile.Config.Store) both keep their keys in a
// [Store]: claim a key under a token for a lease, extend the lease, mark
// the key done for a while, or release it; and, for the reconciler, track
// keys with a due time and a window, claim those due, and reschedule them.
//
// Implementations: [NewMemory] (one process), package claim/redisclaim
// (replicas sharing one Redis), and your own (on your database), which
// claim/claimtest checks against every rule below.
//
// # States
//
// A key is a non-empty string of any bytes (store it as bytes, or hash
// it); keys are compared byte for byte. At any moment a key is free, held
// (by one token, until its lease ends) or done (until its keep ends); a
// lease or keep that ends makes the key free. Independently, a key may be
// tracked: it then has a due time, a window end (expires) and a poll count.
// Tokens are chosen by the caller, unique per attempt (printable ASCII, at
// most 64 bytes): a ClaimDue with the token of an earlier one is its
// re-send. Durations (lease, keep) run from when the store handles
// the call; times (due, expires, now) are the caller's and need only
// millisecond precision.
//
// # Rules
//
//   - Claim: done → [ErrDone]; held by another token → [ErrBusy]; held by
//     the same token → nil, lease renewed; free → held by token, nil.
//     Tracking is untouched. A store that cannot vouch for the key right
//     now (see "Data loss") may answer ErrBusy for a free key.
//   - Extend: held by token → lease renewed, nil; done → ErrDone;
//     otherwise (lapsed, released, another holder) → ErrBusy. A lapsed
//     claim is never revived.
//   - Done: the key is done for keep whatever its state: any claim ends,
//     whoever holds it, and its tracking ends. Done on a key done already
//     succeeds. It never answers ErrBusy or ErrDone.
//   - Release: held by token → free; otherwise nothing. Tracking is
//     untouched.
//   - Track: neither tracked nor done → tracked (due, expires, polls 0);
//     otherwise nothing.
//   - ClaimDue: up to n keys tracked, due by now, free and not done, each
//     held by token for lease, earliest due first; each is not handed out
//     again before now+lease unless rescheduled, released or untracked. A
//     tracked key found done is skipped (it may be untracked).
//   - Reschedule: held by token → free, and if tracked, due at due after
//     polls polls; otherwise nothing.
//   - Untrack: held by token → free and no longer tracked, not done (a
//     later Claim takes it, a later Track tracks it anew); otherwise nothing.
//
// Every method is one atomic step, safe for concurrent use by any number of
// processes sharing the store. Any other error means the outcome is
// unknown, and the caller sends the same call again: every method must give
// the answer the first call would have given (a Claim re-sent after a lost
// reply finds its own token and answers nil; a ClaimDue re-sent with its
// token should return the keys the first one claimed, or they wait for
// their lease).
//
// # The done mark
//
// Nothing requires that only Done writes the mark: a store may let the
// caller's own transaction write it together with the caller's effect
// (effect and mark commit together, so a process killed in between neither
// loses nor repeats the effect). Every method treats a key done by any
// means as done.
//
// # The SDK's keys
//
// The webhook handler claims an event under webhook.Event.DedupKey
// ("id:…", "idsha256:…" or "sha256:…") and marks it done for
// webhook.Config.DedupTTL; the reconciler claims, tracks and marks an
// order under reconcile.OrderKey ("order:" and the order id) for
// reconcile.Config.Remember, and marks it done only for a final status (a
// window-end report is untracked, not done). An adapter that writes the
// mark in the merchant's transaction uses the same keys and rules.
//
// # Data loss
//
// A store that can forget what it wrote (Redis restarted without its data)
// must notice, say so, and grant no claim it cannot vouch for until the
// live processes have written back what they hold, tracked and marked done;
// redisclaim does this with an epoch key. A store that forgets silently
// breaks the promise: a key marked done is claimed and its work done again.
package claim

import (
	"context"
	"time"
)

// Errors of Claim and Extend. They are constants: compare with errors.Is.
const (
	// ErrDone: the key is done (its work was recorded as finished).
	ErrDone = sentinel("checkout: claim: key already done")
	// ErrBusy: another token holds the key, or the caller's claim lapsed.
	ErrBusy = sentinel("checkout: claim: key held by another")
)

type sentinel string

func (s sentinel) Error() string { return string(s) }

// Claimer is the part of the contract the webhook handler needs: claim a
// key under a token for a lease, extend it while the work runs, mark it
// done for a while, or release it so the next attempt takes it. The
// package doc states every rule.
type Claimer interface {
	// Claim holds key for token during lease: nil, ErrDone or ErrBusy.
	Claim(ctx context.Context, key, token string, lease time.Duration) error
	// Extend renews token's claim for lease from now: nil, ErrDone or
	// ErrBusy.
	Extend(ctx context.Context, key, token string, lease time.Duration) error
	// Done marks key done for keep, ending any claim and tracking.
	Done(ctx context.Context, key, token string, keep time.Duration) error
	// Release frees key if token holds it.
	Release(ctx context.Context, key, token string) error
}

// Store is the whole contract: a [Claimer] that also tracks keys, as the
// reconciler tracks orders, and hands out those due.
type Store interface {
	Claimer
	// Track tracks key, due at due, its window ending at expires; nothing
	// when it is tracked or done already.
	Track(ctx context.Context, key string, due, expires time.Time) error
	// ClaimDue claims up to n tracked keys due by now under token for lease.
	ClaimDue(ctx context.Context, now time.Time, n int, token string, lease time.Duration) ([]Entry, error)
	// Reschedule frees key if token holds it and, if tracked, makes it due
	// at due after polls polls.
	Reschedule(ctx context.Context, key, token string, due time.Time, polls int) error
	// Untrack frees key and ends its tracking if token holds it.
	Untrack(ctx context.Context, key, token string) error
}

// Entry is a tracked key that [Store.ClaimDue] handed out.
type Entry struct {
	// Key is the tracked key.
	Key string
	// Polls is the count given by the last Reschedule (0 after Track).
	Polls int
	// Expires is when the key's window ends, as given to Track.
	Expires time.Time
}

// Waiter is an optional interface of a [Claimer] that wakes a caller
// waiting for a held key, instead of letting it ask Claim again and again.
// The memory store implements it.
type Waiter interface {
	// Released returns a channel closed when key, held now, is freed or
	// done, or nil when key is not held. A closed channel means "ask
	// Claim again".
	Released(key string) <-chan struct{}
}
