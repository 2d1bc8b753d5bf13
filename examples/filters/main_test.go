package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/paymentfilter"
)

var update = flag.Bool("update", false, "rewrite testdata/output.txt")

// TestRun: the printed documentation matches testdata/output.txt byte for
// byte, and every payment_filter in it decodes and validates.
func TestRun(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, run(&buf))
	path := filepath.Join("testdata", "output.txt")
	if *update {
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), buf.String())

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
