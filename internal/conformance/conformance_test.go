package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRootFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvVar, dir)
	require.Equal(t, dir, Root())

	t.Setenv(EnvVar, filepath.Join(dir, "missing"))
	require.Empty(t, Root(), "a named folder that does not exist is not found")
}

func TestFilesAndDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "orders"), 0o755))
	write := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "orders", name), []byte(body), 0o644))
	}
	write("b.json", `{"order_id":"b"}`)
	write("a.json", `{"order_id":"a"}`)
	write("a.json.src.txt", "provenance")
	write("c_TRUNCATED.json", `{"order_`)
	t.Setenv(EnvVar, dir)

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "errors"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("not a folder"), 0o644))
	require.Equal(t, []string{"errors", "orders"}, Folders(t), "folders only, sorted")

	require.Equal(t, filepath.Join(dir, "orders"), Dir(t, "orders"))
	files := Files(t, "orders", "*")
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	require.Equal(t, []string{"a.json", "b.json", "c_TRUNCATED.json"}, names, "sorted, provenance notes left out")
	require.True(t, files[0].ValidJSON())
	require.False(t, files[0].Negative())
	require.False(t, files[2].ValidJSON())
	require.True(t, files[2].Negative())
}

func TestNegativeIsCaseSensitive(t *testing.T) {
	for name, want := range map[string]bool{
		"session_payment_filter_only_card.fragment.body.json":            false,
		"payment_filter_emi_standard_credit_hdfc_tenure_3_FRAGMENT.json": true,
		"orderdetails_payment_filter_hide_visa_debit_sbi_MALFORMED.json": true,
		"session_response_sandbox_TRUNCATED.json":                        true,
		"x_PARTIAL.json":             true,
		"order_create_response.json": false,
	} {
		require.Equal(t, want, Sample{Name: name}.Negative(), name)
	}
}

// When the samples are absent, Dir skips the test with a clear message
// naming where it looked: a merchant's fresh clone has no ../shared. With
// RequireEnvVar set (as CI sets it), it fails the test instead.
func TestDirWhenAbsent(t *testing.T) {
	for _, tt := range []struct {
		require         string
		skipped, failed bool
		msg             string
	}{
		{"", true, false, "conformance samples not found at "},
		{"1", false, true, "the samples are required"},
	} {
		none := filepath.Join(t.TempDir(), "none")
		t.Setenv(EnvVar, none)
		t.Setenv(RequireEnvVar, tt.require) // CI sets it; "" is a merchant's clone
		ft := dirWithStandIn(t)
		require.Equal(t, tt.skipped, ft.skipped, tt.require)
		require.Equal(t, tt.failed, ft.failed, tt.require)
		require.Contains(t, ft.msg, tt.msg)
		require.Contains(t, ft.msg, none)
	}
}

// dirWithStandIn calls Dir(…, "orders") with a fakeTB over t, on a
// goroutine of its own that the skip or failure stops, and returns the
// fakeTB.
func dirWithStandIn(t *testing.T) *fakeTB {
	ft := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }()
		Dir(ft, "orders")
	}()
	<-done
	return ft
}

// fakeTB records a skip and stops the calling goroutine the way testing does.
type fakeTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped = true
	f.msg = fmt.Sprintf(format, args...)
	panic("skip")
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}

// Main's line: after the tests ran, one line saying how many were skipped
// for want of the samples, where they were looked for and how to run them;
// nothing when none was skipped, and the tests' exit code unchanged.
func TestMainReportsSkippedTests(t *testing.T) {
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv(EnvVar, none)
	t.Setenv(RequireEnvVar, "")
	var out bytes.Buffer
	code := report(&out, func() int {
		for _, name := range []string{"a", "b", "c"} {
			t.Run(name, func(t *testing.T) { Dir(t, "orders") })
		}
		t.Run("no samples needed", func(t *testing.T) {})
		t.Run("skipped for another reason", func(t *testing.T) { t.Skip("not about samples") })
		return 3
	})
	require.Equal(t, 3, code, "the tests' exit code")
	require.Equal(t, "github.com/payorch/checkout-go/internal/conformance: 3 tests skipped: conformance samples not found at "+
		none+" ("+EnvVar+"); set "+EnvVar+" to a copy of them, or "+RequireEnvVar+"=1 to fail instead of skipping\n", out.String())

	out.Reset()
	require.Zero(t, report(&out, func() int { t.Run("one", func(t *testing.T) { Files(t, "orders", "*") }); return 0 }))
	require.Contains(t, out.String(), ": 1 test skipped: ")

	// Samples present, or a stand-in TB that catches the skip: no line.
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "orders"), 0o755))
	out.Reset()
	require.Zero(t, report(&out, func() int {
		t.Run("found", func(t *testing.T) {
			t.Setenv(EnvVar, dir)
			Dir(t, "orders")
		})
		t.Run("caught", func(t *testing.T) { require.True(t, dirWithStandIn(t).skipped) })
		return 0
	}))
	require.Empty(t, out.String())
}

// Without ../shared and without CHECKOUT_CONFORMANCE_DIR, the path named is
// ../shared/conformance beside the module root, and the package is named
// by its import path.
func TestPackagePath(t *testing.T) {
	require.Equal(t, "github.com/payorch/checkout-go/internal/conformance", packagePath())
}
