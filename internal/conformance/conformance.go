// Package conformance finds the service's published samples for tests.
//
// The samples live in ../shared/conformance beside the repository (CI always
// has it; a merchant's fresh clone does not). Every test that reads them goes
// through Dir, which skips the test with a clear message when they are absent.
// Set CHECKOUT_CONFORMANCE_DIR to point at another copy.
package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// EnvVar overrides where the samples are looked for.
const EnvVar = "CHECKOUT_CONFORMANCE_DIR"

// RequireEnvVar, when set (as the project's CI does), turns a missing
// sample folder into a test failure instead of a skip, so that CI cannot
// pass while skipping every sample test.
const RequireEnvVar = "CHECKOUT_REQUIRE_CONFORMANCE"

// lookedAt says where Root looked: the folder EnvVar names, or
// ../shared/conformance beside the module root as an absolute path.
func lookedAt() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d + " (" + EnvVar + ")"
	}
	dir, err := os.Getwd()
	if err != nil {
		return "../shared/conformance beside the module root"
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared", "conformance")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "../shared/conformance beside the module root (no go.mod found above " + dir + ")"
		}
		dir = parent
	}
}

// Root returns the conformance folder, or "" when it cannot be found.
func Root() string {
	if d := os.Getenv(EnvVar); d != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cand := filepath.Join(dir, "..", "shared", "conformance")
			if fi, err := os.Stat(cand); err == nil && fi.IsDir() {
				return cand
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

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
		tb.Skipf("%s; skipping", msg)
	}
	return root
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
