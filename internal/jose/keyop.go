package jose

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// KeyPanic is a panic of the merchant's signer or decrypter (an HSM or
// key service client), recovered on the goroutine that ran it so that it
// cannot end the process. It is the Err of a KindKeyOp Error.
type KeyPanic struct {
	Value any // what the key panicked with
}

// maxPanicText bounds the panic value an error quotes.
const maxPanicText = 200

func (p *KeyPanic) Error() string {
	s := fmt.Sprint(p.Value)
	if len(s) > maxPanicText {
		cut := maxPanicText
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return "the key panicked: " + s
}

// Unwrap returns the panic value when it is an error.
func (p *KeyPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// Guard runs f, which calls into the merchant's key, and returns a panic
// of f as a KindKeyOp Error whose Err is a *KeyPanic.
func Guard(f func() ([]byte, error)) (out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			p := &KeyPanic{Value: v}
			out, err = nil, &Error{Kind: KindKeyOp, Detail: p.Error(), Err: p}
		}
	}()
	return f()
}

// guarded is Guard for a call that returns a value of another type.
func guarded[T any](f func() (T, error)) (out T, err error) {
	defer func() {
		if v := recover(); v != nil {
			var zero T
			p := &KeyPanic{Value: v}
			out, err = zero, &Error{Kind: KindKeyOp, Detail: p.Error(), Err: p}
		}
	}()
	return f()
}

// Aside runs f, which uses a key that may block (an HSM, a key service),
// on a goroutine of its own that holds one of slots until f returns. It
// waits for a free slot, and for f, only as long as ctx lasts: when ctx
// ends first it returns a KindKeyOp Error wrapping ctx's error, and f, if
// started, is abandoned, still holding its slot. So a key that hangs for
// good holds at most cap(slots) goroutines, and callers past them wait
// within their context instead of adding more. A panic of f is recovered
// as Guard does.
func Aside(ctx context.Context, slots chan struct{}, f func() ([]byte, error)) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Kind: KindKeyOp, Detail: err.Error(), Err: err}
	}
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		err := ctx.Err()
		return nil, &Error{Kind: KindKeyOp, Err: err,
			Detail: fmt.Sprintf("all %d key operation slots stayed busy until the context ended: %v", cap(slots), err)}
	}
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-slots }()
		out, err := Guard(f)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-ctx.Done():
		select {
		case r := <-done: // both ready: the key's answer wins
			return r.out, r.err
		default:
		}
		err := ctx.Err()
		return nil, &Error{Kind: KindKeyOp, Detail: "the key did not answer before the context ended: " + err.Error(), Err: err}
	}
}
