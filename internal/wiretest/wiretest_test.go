package wiretest

import (
	"encoding/json"
	"errors"
	"flag"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/validation"
)

// recorder stands in for the test a helper is given, to see it fail.
type recorder struct {
	testing.TB
	failed bool
}

// The helpers stop through Fatal and Fatalf, testify (in these tests)
// through Errorf and FailNow: all are recorded here instead of failing the real
// test, and FailNow ends the helper's goroutine as testing's own does.
func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow() {
	r.failed = true
	runtime.Goexit()
}
func (r *recorder) Fatalf(string, ...any) { r.FailNow() }
func (r *recorder) Fatal(...any)          { r.FailNow() }

func fails(t *testing.T, f func(tb testing.TB)) bool {
	t.Helper()
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

func TestGolden(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.Mkdir("testdata", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("testdata", "a.json"), []byte("{\"a\":1}\n"), 0o644))

	require.False(t, fails(t, func(tb testing.TB) { Golden(tb, "a.json", []byte("{\"a\":1}\n")) }))
	require.True(t, fails(t, func(tb testing.TB) { Golden(tb, "a.json", []byte(`{"a":1}`)) }), "a missing newline is a difference")
	require.True(t, fails(t, func(tb testing.TB) { Golden(tb, "missing.json", []byte(`{}`)) }))

	require.Equal(t, "{\"a\":1}\n", string(ReadGolden(t, "a.json")))
	require.True(t, fails(t, func(tb testing.TB) { ReadGolden(tb, "missing.json") }))

	*update = true
	t.Cleanup(func() { *update = false })
	Golden(t, "new.json", []byte("[]\n"))
	got, err := os.ReadFile(filepath.Join("testdata", "new.json"))
	require.NoError(t, err)
	require.Equal(t, "[]\n", string(got))
}

func TestJSONString(t *testing.T) {
	require.Equal(t, `{"a":[1,"\u003c"]}`, JSONString(t, map[string]any{"a": []any{1, "<"}}))
	require.True(t, fails(t, func(tb testing.TB) { JSONString(tb, func() {}) }))
}

func TestTree(t *testing.T) {
	require.Equal(t, Tree(t, []byte(`{"b":[1,"x"],"a":null}`)), Tree(t, []byte(` { "a" : null , "b" : [ 1 , "x" ] } `)))
	require.NotEqual(t, Tree(t, []byte(`{"a":1}`)), Tree(t, []byte(`{"a":"1"}`)))
	require.True(t, fails(t, func(tb testing.TB) { Tree(tb, []byte(`{`)) }))
}

func TestRequireProblem(t *testing.T) {
	one := &validation.Error{Problems: []validation.Problem{{Path: "x.a", Message: "must be a string, got a number"}}}
	two := &validation.Error{Problems: append(one.Problems, validation.Problem{Path: "x.b", Message: "m"})}

	require.False(t, fails(t, func(tb testing.TB) { RequireProblem(tb, one, "x.a", "got a number") }))
	require.False(t, fails(t, func(tb testing.TB) { RequireProblem(tb, errors.Join(errors.New("wrapped"), one), "x.a", "string") }))
	require.True(t, fails(t, func(tb testing.TB) { RequireProblem(tb, one, "x.b", "got a number") }), "wrong path")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblem(tb, one, "x.a", "boolean") }), "wrong message")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblem(tb, two, "x.a", "") }), "two problems")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblem(tb, errors.New("x.a"), "x.a", "") }), "not a *validation.Error")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblem(tb, nil, "x.a", "") }), "no error")
}

func TestBench(t *testing.T) {
	benchtime := flag.Lookup("test.benchtime").Value
	old := benchtime.String()
	require.NoError(t, benchtime.Set("100x"))
	t.Cleanup(func() { _ = benchtime.Set(old) })

	calls := 0
	r := testing.Benchmark(func(b *testing.B) { Bench(b, func() error { calls++; return nil }) })
	require.Positive(t, r.N)
	require.GreaterOrEqual(t, calls, r.N)

	r = testing.Benchmark(func(b *testing.B) { Bench(b, func() error { return errors.New("broken") }) })
	require.Zero(t, r.N, "an error stops the benchmark")
}

func TestFlip(t *testing.T) {
	for in, want := range map[string]string{"AAA": "ABA", "xyz": "xAz", "ab": "aA", "A": "B"} {
		require.Equal(t, want, Flip(t, in), in)
	}
	require.True(t, fails(t, func(tb testing.TB) { Flip(tb, "") }), "an empty part cannot be tampered with")
}

func TestNumberTreeKeepsNumberText(t *testing.T) {
	require.Equal(t, []any{json.Number("100.0"), json.Number("1e2"), "x"}, NumberTree(t, []byte(`[100.0, 1e2, "x"]`)))
	require.Equal(t, map[string]any{"amount": json.Number("1.50")}, Object(t, []byte(`{"amount":1.50}`)))
	require.True(t, fails(t, func(tb testing.TB) { Object(tb, []byte(`[1]`)) }), "an array is not an object")
	require.True(t, fails(t, func(tb testing.TB) { NumberTree(tb, []byte(`{`)) }), "malformed JSON")
}

func TestGoldenIndented(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.Mkdir("testdata", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("testdata", "g.json"), []byte("{\n  \"b\": 1,\n  \"a\": [\n    \"<\"\n  ]\n}\n"), 0o644))
	require.False(t, fails(t, func(tb testing.TB) { GoldenIndented(tb, "g.json", []byte(`{"b":1,"a":["<"]}`)) }))
	require.True(t, fails(t, func(tb testing.TB) { GoldenIndented(tb, "g.json", []byte(`{"a":["<"],"b":1}`)) }), "same JSON, other key order")
	require.True(t, fails(t, func(tb testing.TB) { GoldenIndented(tb, "g.json", []byte(`{"b":1,"a":["\u003c"]}`)) }), "same JSON, other escaping")
	require.True(t, fails(t, func(tb testing.TB) { GoldenIndented(tb, "g.json", []byte(`{"b":2,"a":["<"]}`)) }), "another value")
}

// TestOnlyTestsImportTheTestHelpers: the module's test helpers (this
// package, conformance, testio) are imported by _test.go files alone, so
// no library code depends on them, and their own non-test files import no
// assertion library, so testify stays a dependency of test files.
func TestOnlyTestsImportTheTestHelpers(t *testing.T) {
	const module = "github.com/payorch/checkout-go"
	helpers := map[string]bool{module + "/internal/wiretest": true, module + "/internal/conformance": true, module + "/internal/testio": true}
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		isHelper := helpers[module+"/"+filepath.ToSlash(dir)]
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			require.False(t, helpers[p] && !isHelper, "%s is library code and imports the test helper %s", path, p)
			require.False(t, isHelper && strings.HasPrefix(p, "github.com/stretchr/testify"), "%s, a test helper, imports %s", path, p)
		}
		checked++
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 100, "the walk reads the module's files")
}
