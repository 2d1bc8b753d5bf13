package wiretest

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/validation"
)

// Decode decodes the JSON text s into a new T, failing the test when it
// does not decode: a value that only arrives by decoding (a malformed
// range, an unknown key).
func Decode[T any](tb testing.TB, s string) *T {
	tb.Helper()
	v := new(T)
	if err := json.Unmarshal([]byte(s), v); err != nil {
		tb.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// Encoding is one row of a decode table: In, decoded into the model, is
// sent back as Out. It names an unnamed struct type, so that rows can be
// written without field names.
type Encoding = struct{ Name, In, Out string }

// RunEncodings checks each row in a subtest: In, decoded into a T, is
// what json.Marshal sends back as Out.
func RunEncodings[T any](t *testing.T, rows []Encoding) {
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) { equal(t, r.Out, JSONString(t, Decode[T](t, r.In)), r.In+" sent back") })
	}
}

// Rejection is one row of a table of values Validate refuses: the value
// Build makes (from JSON through Decode, when only decoding can make it)
// gets, among any others, a problem at Path whose message holds Fragment.
// Like Encoding, it names an unnamed struct type.
type Rejection[T any] = struct {
	Name           string
	Build          func(t *testing.T) T
	Path, Fragment string
}

// RunRejections checks each row in a subtest (see RequireProblemAt).
func RunRejections[T interface{ Validate() error }](t *testing.T, rows []Rejection[T]) {
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) { RequireProblemAt(t, r.Build(t).Validate(), r.Path, r.Fragment) })
	}
}

// RequireProblemAt checks that err is a *validation.Error with, among any
// others, a problem at path whose message holds fragment.
func RequireProblemAt(tb testing.TB, err error, path, fragment string) {
	tb.Helper()
	var ve *validation.Error
	if !errors.As(err, &ve) {
		tb.Fatalf("want a *validation.Error, got %T %v", err, err)
	}
	var at []string
	for _, p := range ve.Problems {
		if p.Path == path {
			at = append(at, p.Message)
		}
	}
	if len(at) == 0 {
		tb.Fatalf("no problem at %s; got %v", path, err)
	}
	for _, m := range at {
		if strings.Contains(m, fragment) {
			return
		}
	}
	tb.Fatalf("no problem with that message: problems at %s are %q; want one containing %q", path, at, fragment)
}

// LastProblem returns the message of the last problem of err, which must
// be a *validation.Error.
func LastProblem(tb testing.TB, err error) string {
	tb.Helper()
	var ve *validation.Error
	if !errors.As(err, &ve) || len(ve.Problems) == 0 {
		tb.Fatalf("want a *validation.Error with problems, got %v", err)
	}
	return ve.Problems[len(ve.Problems)-1].Message
}

// Model is what the fluent builders make (a *paymentfilter.Filter, an
// *emi.Options): a value that validates itself and copies itself.
type Model[T any] interface {
	Validate() error
	Clone() T
}

// Behaviour is one documented behaviour of a builder: what its chain of
// calls builds, the golden file of the JSON in testdata, and the published
// sample with the same shape ("<folder>/<file>" among the conformance
// samples, "" when none has). Like Encoding, it names an unnamed struct
// type.
type Behaviour[T any] = struct {
	Name   string
	Build  T
	Golden string
	Sample string
}

// RunGoldens checks that each behaviour's build is valid and encodes to
// its golden file byte for byte.
func RunGoldens[T Model[T]](t *testing.T, bs []Behaviour[T]) {
	for _, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			must(t, b.Build.Validate())
			Golden(t, b.Golden, []byte(JSONString(t, b.Build)+"\n"))
		})
	}
}

// RunGoldenShapes checks each golden against the sample showing the same
// behaviour: the same JSON tree, key order aside, as want finds in the
// sample's data.
func RunGoldenShapes[T any](t *testing.T, bs []Behaviour[T], want func(tb testing.TB, sample []byte) any) {
	for _, b := range bs {
		if b.Sample == "" {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			dir, file := filepath.Split(b.Sample)
			samples := conformance.Files(t, filepath.Clean(dir), file)
			if len(samples) != 1 {
				t.Fatalf("want one sample %s, found %d", b.Sample, len(samples))
			}
			if w, g := want(t, samples[0].Data), Tree(t, ReadGolden(t, b.Golden)); !reflect.DeepEqual(w, g) {
				t.Fatalf("golden %s has not the shape of sample %s:\nwant %v\ngot  %v", b.Golden, b.Sample, w, g)
			}
		})
	}
}

// RunLiterals checks, for each behaviour, that the struct literal a caller
// would write (lits, by golden file) is what the chain builds (see
// RequireLiteral) and encodes to the golden. lits has one literal per
// behaviour, no more.
func RunLiterals[T Model[T]](t *testing.T, bs []Behaviour[T], lits map[string]T) {
	for _, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			lit, ok := lits[b.Golden]
			if !ok {
				t.Fatalf("no literal for %s", b.Golden)
			}
			RequireLiteral(t, lit, b.Build)
			equal(t, string(ReadGolden(t, b.Golden)), JSONString(t, lit)+"\n", "the literal encodes to the golden")
		})
	}
	if len(lits) != len(bs) {
		t.Fatalf("want a literal per behaviour, no more: %d literals, %d behaviours", len(lits), len(bs))
	}
}

// RequireLiteral checks that chain is reflect.DeepEqual to lit, unexported
// fields included, and so is the copy Clone makes: a chain keeps no trace
// of its calls.
func RequireLiteral[T Model[T]](tb testing.TB, lit, chain T) {
	tb.Helper()
	if !reflect.DeepEqual(lit, chain) {
		tb.Fatalf("the chain is not the literal:\nliteral %+v\nchain   %+v", lit, chain)
	}
	if c := chain.Clone(); !reflect.DeepEqual(lit, c) {
		tb.Fatalf("the chain's Clone is not the literal:\nliteral %+v\nclone   %+v", lit, c)
	}
}
