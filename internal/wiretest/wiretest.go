// Package wiretest holds the wire test helpers that the tests of the root
// package, emi, paymentfilter, productsummary, webhook and e2e share:
// golden-file comparison with an -update flag, decoding JSON into a generic
// tree, tampering with a JOSE part, and checking that a decoder reported one
// problem at a JSON path.
//
// Only tests import it, and it imports no assertion library: its checks
// fail the test through testing.TB, so that testify stays a dependency of
// test files alone.
//
// Importing it registers the -update flag, so a test package that imports
// it must not define its own.
package wiretest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/payorch/checkout-go/validation"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (check them by eye against the spec before committing)")

// Golden compares got byte for byte with testdata/name of the package under
// test. With go test -update it first writes got there.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		must(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go test -update to create it, then check it by eye", err)
	}
	equal(t, string(want), string(got), "golden "+name)
}

// must fails t when err is not nil.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// equal fails t, saying what, unless got is want.
func equal[T comparable](t testing.TB, want, got T, what string) {
	t.Helper()
	if got != want {
		t.Fatalf("%s:\nwant %v\ngot  %v", what, want, got)
	}
}

// GoldenIndented compares a JSON body with testdata/name, an indented
// file that is easy to read and review: the same keys in the same order
// with the same values, byte for byte once the file is compacted. With go
// test -update it first writes got there, indented.
func GoldenIndented(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		var pretty bytes.Buffer
		must(t, json.Indent(&pretty, got, "", "  "))
		pretty.WriteByte('\n')
		must(t, os.WriteFile(path, pretty.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	must(t, err)
	var compact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatalf("golden %s is not JSON: %v", name, err)
	}
	if !reflect.DeepEqual(Tree(t, compact.Bytes()), Tree(t, got)) {
		t.Fatalf("golden %s: different JSON:\nwant %s\ngot  %s", name, compact.String(), got)
	}
	equal(t, compact.String(), string(got), "golden "+name+": same JSON, different bytes (key order or escaping)")
}

// JSONString returns the encoding/json encoding of v as a string, failing
// the test when v does not encode.
func JSONString(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}

// ReadGolden returns the content of testdata/name.
func ReadGolden(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	must(t, err)
	return data
}

// Tree decodes data into a generic tree, so that two documents compare
// equal whatever their key order and spacing.
func Tree(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	must(t, json.Unmarshal(data, &v))
	return v
}

// NumberTree decodes data into a generic tree with its numbers kept as
// json.Number, the text the body wrote: a test reading a body independently
// of the SDK's own decoding sees 100 and 100.0 apart.
func NumberTree(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	must(t, dec.Decode(&v))
	return v
}

// Object is NumberTree for data that must be a JSON object.
func Object(t testing.TB, data []byte) map[string]any {
	t.Helper()
	m, ok := NumberTree(t, data).(map[string]any)
	if !ok {
		t.Fatalf("not a JSON object: %s", data)
	}
	return m
}

// Flip returns s, a base64url text such as a part of a JWE or JWS, with
// the character in its middle changed to another base64url character: the
// smallest tampering, which must make a signature or an authentication tag
// fail. An empty s has nothing to tamper with and fails the test.
func Flip(t testing.TB, s string) string {
	t.Helper()
	if s == "" {
		t.Fatalf("wiretest.Flip: nothing to tamper with in an empty part")
	}
	b := []byte(s)
	if i := len(b) / 2; b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// RequireProblem checks that err is a *validation.Error (the one error of
// every Validate; checkout.ValidationError is the same type) holding
// exactly one problem, at path, whose message contains fragment.
func RequireProblem(t testing.TB, err error, path, fragment string) {
	t.Helper()
	var ve *validation.Error
	if !errors.As(err, &ve) || len(ve.Problems) != 1 {
		t.Fatalf("want a *validation.Error with one problem, got %T %v", err, err)
	}
	if p := ve.Problems[0]; p.Path != path || !strings.Contains(p.Message, fragment) {
		t.Fatalf("want a problem at %s containing %q, got %s", path, fragment, p)
	}
}

// Bench runs op in b's loop and reports allocations; an error from op
// stops the benchmark.
func Bench(b *testing.B, op func() error) {
	b.ReportAllocs()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
}
