package wiretest

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/validation"
)

// box is a model: it validates and copies itself.
type box struct {
	N    int  `json:"n"`
	seen bool // set by a chain, to tell it from a literal
}

func (b *box) Validate() error {
	if b.N < 0 {
		return &validation.Error{Problems: []validation.Problem{{Path: "n", Message: "negative"}}}
	}
	return nil
}

func (b *box) Clone() *box { c := *b; return &c }

// drifting is a value that never encodes the same way twice, and whose
// output does not decode back the same.
type drifting struct {
	N int `json:"n"`
}

var drifts int

func (d drifting) MarshalJSON() ([]byte, error) {
	drifts++
	return []byte(`{"n":` + strconv.Itoa(d.N+drifts) + `}`), nil
}

func TestDecode(t *testing.T) {
	require.Equal(t, &box{N: 3}, Decode[box](t, `{"n":3}`))
	require.True(t, fails(t, func(tb testing.TB) { Decode[box](tb, `{"n":"3"}`) }))

}

func TestRequireProblemAt(t *testing.T) {
	two := &validation.Error{Problems: []validation.Problem{{Path: "a", Message: "first"}, {Path: "a", Message: "second"}, {Path: "b", Message: "third"}}}
	require.False(t, fails(t, func(tb testing.TB) { RequireProblemAt(tb, two, "a", "second") }), "any problem at the path")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblemAt(tb, two, "a", "third") }), "the message is at another path")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblemAt(tb, two, "c", "") }), "no problem at the path")
	require.True(t, fails(t, func(tb testing.TB) { RequireProblemAt(tb, errors.New("a"), "a", "") }), "not a *validation.Error")

	require.Equal(t, "third", LastProblem(t, two))
	require.True(t, fails(t, func(tb testing.TB) { LastProblem(tb, nil) }))
}

func TestRequireLiteral(t *testing.T) {
	require.False(t, fails(t, func(tb testing.TB) { RequireLiteral(tb, &box{N: 1}, &box{N: 1}) }))
	require.True(t, fails(t, func(tb testing.TB) { RequireLiteral(tb, &box{N: 1}, &box{N: 1, seen: true}) }), "an unexported difference")
	require.True(t, fails(t, func(tb testing.TB) { RequireLiteral(tb, &box{N: 1}, &box{N: 2}) }))
}

// span is a Range of the form "<a>::<b>" with digits; it keeps other text.
type span struct {
	A, B int
	raw  string
	bad  bool
}

func parseSpan(s string) (span, error) {
	a, b, ok := strings.Cut(s, "::")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || strconv.Itoa(x) != a || strconv.Itoa(y) != b {
		return span{}, errors.New("malformed")
	}
	return span{A: x, B: y}, nil
}

func (s span) String() string {
	if s.bad {
		return s.raw
	}
	return strconv.Itoa(s.A) + "::" + strconv.Itoa(s.B)
}

func (s span) Validate() error {
	if s.bad {
		return errors.New("malformed")
	}
	return nil
}

func (s span) Malformed() bool { return s.bad }

func (s *span) UnmarshalText(text []byte) error {
	p, err := parseSpan(string(text))
	if err != nil {
		p = span{raw: string(text), bad: true}
	}
	*s = p
	return nil
}

func TestCheckRange(t *testing.T) {
	ok := func(span) bool { return true }
	for _, s := range []string{"1::2", "", "x", "01::2"} {
		require.False(t, fails(t, func(tb testing.TB) { CheckRange(tb, s, parseSpan, ok) }), s)
	}
	require.True(t, fails(t, func(tb testing.TB) {
		CheckRange(tb, "2::1", parseSpan, func(s span) bool { return s.A <= s.B })
	}), "accepted but not sound")
	lax := func(s string) (span, error) { return span{A: 1, B: 2}, nil }
	require.True(t, fails(t, func(tb testing.TB) { CheckRange(tb, "x", lax, ok) }), "accepts what does not print back")
}

func TestCheckStable(t *testing.T) {
	require.False(t, fails(t, func(tb testing.TB) { CheckStable[box](tb, []byte(`{"n":-1}`)) }))
	require.False(t, fails(t, func(tb testing.TB) { CheckStable[box](tb, []byte(`[`)) }), "what does not decode is no failure")
	require.True(t, fails(t, func(tb testing.TB) { CheckStable[drifting](tb, []byte(`{"n":1}`)) }), "unstable")
}

// TestRunTables runs each table helper on a row that holds: the rows'
// checks are RequireProblemAt, Decode and JSONString, tested above.
func TestRunTables(t *testing.T) {
	RunEncodings[box](t, []Encoding{{"number", `{"n":1}`, `{"n":1}`}, {"an unknown key is dropped", `{"n":3,"x":1}`, `{"n":3}`}})
	RunRejections(t, []Rejection[*box]{{"negative", func(*testing.T) *box { return &box{N: -1} }, "n", "negative"}})
}
