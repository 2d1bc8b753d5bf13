package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/paymentfilter"
)

// TestRun: the printed documentation matches testdata/output.txt byte for
// byte, and every payment_filter in it decodes and validates.
func TestRun(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, run(&buf))
	wiretest.Golden(t, "output.txt", buf.Bytes())

	blocks := strings.Split(strings.TrimSpace(buf.String()), "\n\n")
	require.Len(t, blocks, len(behaviours())+3)
	captions := map[string]bool{}
	for _, block := range blocks {
		caption, _, _ := strings.Cut(block, "\n")
		require.True(t, strings.HasPrefix(caption, "# "), block)
		require.False(t, captions[caption], "one caption per behaviour: %s is used twice", caption)
		captions[caption] = true
	}
	for i, block := range blocks[:len(behaviours())] {
		caption, body, ok := strings.Cut(block, "\n")
		require.True(t, ok)
		require.Equal(t, "# "+behaviours()[i].caption, caption)
		var f paymentfilter.Filter
		require.NoError(t, json.Unmarshal([]byte(body), &f), caption)
		require.NoError(t, f.Validate(), caption)
	}
}
