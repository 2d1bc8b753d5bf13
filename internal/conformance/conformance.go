// Package conformance finds the service's published samples for tests.
// Only tests import it, and it imports no assertion library (a test of
// package wiretest checks both).
//
// The samples live in ../shared/conformance beside the repository (CI always
// has it; a merchant's fresh clone does not). Every test that reads them goes
// through Dir, which skips the test with a clear message when they are absent.
// Set CHECKOUT_CONFORMANCE_DIR to point at another copy. Each package with
// such tests calls Main from its TestMain, which says in one line how many
// were skipped and why.
package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// EnvVar overrides where the samples are looked for.
const EnvVar = "CHECKOUT_CONFORMANCE_DIR"

// RequireEnvVar, when set (as the project's CI does), turns a missing
// sample folder into a test failure instead of a skip, so that CI cannot
// pass while skipping every sample test.
const RequireEnvVar = "CHECKOUT_REQUIRE_CONFORMANCE"

// moduleDir returns the folder of the go.mod above the working directory,
// and the working directory; ok is false when there is none.
func moduleDir() (dir, wd string, ok bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", "", false
	}
	for dir = wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, wd, true
		}
		if filepath.Dir(dir) == dir {
			return "", wd, false
		}
	}
}

// lookedAt says where Root looked: the folder EnvVar names, or
// ../shared/conformance beside the module root as an absolute path.
func lookedAt() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d + " (" + EnvVar + ")"
	}
	dir, _, ok := moduleDir()
	if !ok {
		return "../shared/conformance beside the module root (no go.mod found)"
	}
	return filepath.Join(filepath.Dir(dir), "shared", "conformance")
}

// Root returns the conformance folder, or "" when it cannot be found.
func Root() string {
	d := os.Getenv(EnvVar)
	if d == "" {
		dir, _, ok := moduleDir()
		if !ok {
			return ""
		}
		d = filepath.Join(filepath.Dir(dir), "shared", "conformance")
	}
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return d
	}
	return ""
}

// skipped counts the tests of this test binary that ended skipped because
// the samples are absent, for Main's line. It is the one package-level
// variable of the module's test helpers: a test reaches the samples through
// Dir with nothing but its testing.TB, and the tally has to outlive every
// test of the binary.
var skipped atomic.Int64

// requireRoot returns Root, or skips the test with a message saying where
// the samples were looked for; when RequireEnvVar is set (as in CI) their
// absence fails the test instead.
func requireRoot(tb testing.TB) string {
	tb.Helper()
	root := Root()
	if root == "" {
		msg := fmt.Sprintf("conformance samples not found at %s (set %s to use a copy elsewhere)", lookedAt(), EnvVar)
		if os.Getenv(RequireEnvVar) != "" {
			tb.Fatalf("%s; %s is set, so the samples are required", msg, RequireEnvVar)
		}
		// Counted once the test has ended skipped: a test that catches the
		// skip (this package's own tests, with a stand-in TB) is not.
		tb.Cleanup(func() {
			if tb.Skipped() {
				skipped.Add(1)
			}
		})
		tb.Skipf("%s; skipping", msg)
	}
	return root
}

// Main runs the tests of a package (m.Run) and returns their exit code, for
// the package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(conformance.Main(m)) }
//
// When some tests were skipped because the samples are absent (a clone
// without ../shared), it then prints one line on stderr saying how many,
// where the samples were looked for, and how to run them. go test shows
// the output of a package that passes only when run without package
// arguments (go test, in the package's folder) or with -v or -json, so
// "go test -v ./... 2>&1 | grep 'skipped: conformance'" lists the lines of a
// whole clone; plain "go test ./..." prints only each package's ok line.
func Main(m interface{ Run() int }) int {
	return report(os.Stderr, m.Run)
}

// report runs run and writes Main's line to w when tests were skipped
// during it.
func report(w io.Writer, run func() int) int {
	before := skipped.Load()
	code := run()
	if n := skipped.Load() - before; n > 0 {
		tests := "tests"
		if n == 1 {
			tests = "test"
		}
		fmt.Fprintf(w, "%s: %d %s skipped: conformance samples not found at %s; set %s to a copy of them, or %s=1 to fail instead of skipping\n",
			packagePath(), n, tests, lookedAt(), EnvVar, RequireEnvVar)
	}
	return code
}

// packagePath returns the import path of the package under test, from the
// module path in go.mod and the folder go test runs the tests in (the
// package's); the folder itself when go.mod cannot be read.
func packagePath() string {
	dir, wd, ok := moduleDir()
	if !ok {
		return "this package"
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return wd
	}
	for line := range strings.Lines(string(data)) {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			if rel, err := filepath.Rel(dir, wd); err == nil && rel != "." {
				return strings.TrimSpace(mod) + "/" + filepath.ToSlash(rel)
			}
			return strings.TrimSpace(mod)
		}
	}
	return wd
}

// Dir returns the sample folder sub (for example "orders"), skipping the
// test when the samples are not beside the repository.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	root := requireRoot(tb)
	d := filepath.Join(root, sub)
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		tb.Fatalf("conformance folder %s is present but has no %q: %v", root, sub, err)
	}
	return d
}

// Folders returns the names of the sample folders ("emi", "errors", …),
// sorted, so that a test can check it covers every sample, including those
// of a folder added later. The test is skipped when the samples are absent.
func Folders(tb testing.TB) []string {
	tb.Helper()
	root := requireRoot(tb)
	entries, err := os.ReadDir(root)
	if err != nil {
		tb.Fatalf("read %s: %v", root, err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		tb.Fatalf("conformance folder %s has no sample folders", root)
	}
	return out
}

// Sample is one published sample file.
type Sample struct {
	Name string // file name, e.g. "order_create_response.json"
	Path string
	Data []byte
}

// ValidJSON reports whether the sample is valid JSON.
func (s Sample) ValidJSON() bool { return json.Valid(s.Data) }

// Files returns the samples of folder sub whose names match the glob pattern,
// leaving out the ".src.txt" provenance notes, sorted by name. The test is
// skipped when the samples are absent and fails when nothing matches.
func Files(tb testing.TB, sub, pattern string) []Sample {
	tb.Helper()
	d := Dir(tb, sub)
	matches, err := filepath.Glob(filepath.Join(d, pattern))
	if err != nil {
		tb.Fatalf("bad pattern %q: %v", pattern, err)
	}
	sort.Strings(matches)
	var out []Sample
	for _, m := range matches {
		if strings.HasSuffix(m, ".src.txt") {
			continue
		}
		data, err := os.ReadFile(m)
		if err != nil {
			tb.Fatalf("read %s: %v", m, err)
		}
		out = append(out, Sample{Name: filepath.Base(m), Path: m, Data: data})
	}
	if len(out) == 0 {
		tb.Fatalf("no conformance sample matches %s/%s", sub, pattern)
	}
	return out
}

// Negative reports whether the sample is flagged as not valid JSON on purpose:
// MALFORMED, TRUNCATED, FRAGMENT or PARTIAL in capitals in its name. The match
// is case-sensitive because lower-case ".fragment." bodies are valid JSON.
func (s Sample) Negative() bool {
	for _, w := range []string{"MALFORMED", "TRUNCATED", "FRAGMENT", "PARTIAL"} {
		if strings.Contains(s.Name, w) {
			return true
		}
	}
	return false
}
