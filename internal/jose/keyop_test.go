package jose

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// A panic of the key becomes a KindKeyOp Error holding a *KeyPanic, whose
// text is clipped and which unwraps to a panic value that is an error.
func TestGuardRecovers(t *testing.T) {
	boom := errors.New("boom")
	for _, v := range []any{"index out of range", boom, 42, strings.Repeat("é", 300)} {
		out, err := Guard(func() ([]byte, error) { panic(v) })
		require.Nil(t, out)
		require.Equal(t, KindKeyOp, kindOf(t, err))
		var p *KeyPanic
		require.ErrorAs(t, err, &p)
		require.Equal(t, v, p.Value)
		require.True(t, strings.HasPrefix(err.Error(), "the key panicked: "), err.Error())
		require.LessOrEqual(t, len(err.Error()), len("the key panicked: ")+maxPanicText+len("…"))
		require.True(t, strings.ToValidUTF8(err.Error(), "?") == err.Error(), "cut on a character boundary")
	}
	_, err := Guard(func() ([]byte, error) { panic(boom) })
	require.ErrorIs(t, err, boom)
	out, err := Guard(func() ([]byte, error) { return []byte("ok"), nil })
	require.NoError(t, err)
	require.Equal(t, "ok", string(out))
}

// Aside waits for a free slot within ctx, runs f aside, and returns as
// soon as ctx ends, leaving f behind in its slot.
func TestAside(t *testing.T) {
	slots := make(chan struct{}, 1)
	release := make(chan struct{})
	started := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := Aside(ctx, slots, func() ([]byte, error) {
			close(started)
			<-release
			return nil, nil
		})
		first <- err
	}()
	<-started
	// A second operation waits for the slot, within its own context.
	wctx := &watchedCtx{Context: ctx, waiting: make(chan struct{})}
	second := make(chan error, 1)
	ran := false
	go func() {
		_, err := Aside(wctx, slots, func() ([]byte, error) { ran = true; return nil, nil })
		second <- err
	}()
	<-wctx.waiting
	cancel()
	err := <-first
	require.Equal(t, KindKeyOp, kindOf(t, err))
	require.ErrorIs(t, err, context.Canceled)
	require.Contains(t, err.Error(), "the key did not answer before the context ended")
	err = <-second
	require.Equal(t, KindKeyOp, kindOf(t, err))
	require.ErrorIs(t, err, context.Canceled)
	require.EqualError(t, err, "all 1 key operation slots stayed busy until the context ended: context canceled")
	require.False(t, ran)
	require.Len(t, slots, 1, "the abandoned operation keeps its slot")
	close(release)
	slots <- struct{}{} // the slot came back
	<-slots

	out, err := Aside(context.Background(), slots, func() ([]byte, error) { panic("hsm") })
	require.Nil(t, out)
	require.EqualError(t, err, "the key panicked: hsm")
	require.Empty(t, slots, "a panic gives the slot back")
	out, err = Aside(context.Background(), slots, func() ([]byte, error) { return []byte("sig"), nil })
	require.NoError(t, err)
	require.Equal(t, "sig", string(out))
}

// watchedCtx closes waiting when Done is first asked for: Aside asks when
// it starts to wait for a slot.
type watchedCtx struct {
	context.Context
	waiting chan struct{}
	once    sync.Once
}

func (c *watchedCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}
