package checkout

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goBlock matches a ```go fenced block of a Markdown file.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// normalisedLines returns the non-blank lines of code with their runs of
// white space folded to one space and the ends trimmed, so a README snippet
// matches the same code indented inside an Example function and aligned by
// gofmt.
func normalisedLines(code string) []string {
	var out []string
	for line := range strings.SplitSeq(code, "\n") {
		if l := strings.Join(strings.Fields(line), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// containsRun reports whether lines holds want as a contiguous run.
func containsRun(lines, want []string) bool {
	for i := 0; i+len(want) <= len(lines); i++ {
		match := true
		for j, w := range want {
			if lines[i+j] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// Every Go snippet of the README is code that compiles and runs: it stands,
// line for line, in a test file of the module (an Example function or a
// test), so the README cannot drift from the API.
func TestREADMESnippetsAreCompiledCode(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	blocks := goBlock.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, blocks, "the README has Go snippets")

	var sources [][]string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") && path != "readme_test.go" {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources = append(sources, normalisedLines(string(b)))
		}
		return nil
	})
	require.NoError(t, err)

	for _, b := range blocks {
		want := normalisedLines(b[1])
		found := false
		for _, src := range sources {
			if containsRun(src, want) {
				found = true
				break
			}
		}
		require.True(t, found, "README snippet starting %q is not compiled code: copy it into an Example or a test, line for line", want[0])
	}
}

func TestContainsRun(t *testing.T) {
	lines := []string{"a", "b", "c", "d"}
	require.True(t, containsRun(lines, []string{"b", "c"}))
	require.False(t, containsRun(lines, []string{"b", "d"}))
	require.False(t, containsRun(lines, []string{"d", "e"}))
	require.Equal(t, []string{"x := 1", "y() // z"}, normalisedLines("\tx  :=\t1\n\n   y()   // z  \n"))
}
