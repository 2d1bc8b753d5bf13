package checkout

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A reply over the 16 MiB cap is refused without its buffer growing past
// the cap plus one byte: in all, under twice the cap is allocated, whether
// the length is announced or not (chunked).
func TestReadBodyAllocationAtCap(t *testing.T) {
	big := bytes.Repeat([]byte("x"), maxResponseBody+1<<20)
	for _, length := range []int64{-1, int64(len(big))} {
		var err error
		n := allocated(func() {
			_, err = readBody(&http.Response{ContentLength: length, Body: io.NopCloser(bytes.NewReader(big))})
		})
		require.ErrorContains(t, err, "larger than")
		require.Less(t, n, uint64(2*maxResponseBody), "length %d: %d bytes allocated", length, n)
	}
	// An accepted body just under the cap, length unknown.
	ok := big[:maxResponseBody-1<<20]
	var got []byte
	n := allocated(func() { got, _ = readBody(&http.Response{ContentLength: -1, Body: io.NopCloser(bytes.NewReader(ok))}) })
	require.Equal(t, len(ok), len(got))
	require.Less(t, n, uint64(2*maxResponseBody), "%d bytes allocated", n)
	require.Less(t, cap(got), maxResponseBody+2)
}

// The one decode: lenient on a value of the wrong type, strict on shape.
func TestDecodeIntoLenient(t *testing.T) {
	var m struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	require.NoError(t, decodeInto([]byte(`{"a":"text","b":"kept"}`), &m))
	require.Equal(t, "kept", m.B)
	require.Zero(t, m.A)
	require.NoError(t, decodeInto(nil, &m), "an empty body decodes nothing for Do")
	require.ErrorContains(t, decodeInto([]byte(`{"a":`), &m), "decode response")
	_, err := decodeReply[OrderStatus]([]byte(`[]`))
	require.True(t, strings.Contains(err.Error(), "a JSON array, not a JSON object"), err.Error())
}
