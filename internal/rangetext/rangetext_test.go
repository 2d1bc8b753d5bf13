package rangetext

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/valid"
)

// span is a range type as the SDK's are: a parsed range, or the text it
// was decoded from when it did not parse.
type span struct {
	from, to  string
	raw       string
	malformed bool
}

func parseSpan(s string) (span, string) {
	if len(s) != 4 || s[1:3] != "::" {
		return span{}, "malformed span " + s
	}
	return span{from: s[:1], to: s[3:]}, ""
}

func keepSpan(text string) span { return span{raw: text, malformed: true} }

// ordered is span's own check: from not after to.
func ordered(r span) string {
	if r.from > r.to {
		return "from greater than to"
	}
	return ""
}

func TestParse(t *testing.T) {
	r, err := Parse("parse span", "1::2", parseSpan)
	require.NoError(t, err)
	require.Equal(t, span{from: "1", to: "2"}, r)

	r, err = Parse("parse span", "1-2", parseSpan)
	require.EqualError(t, err, "checkout: parse span: malformed span 1-2")
	require.Zero(t, r)
}

func TestDecode(t *testing.T) {
	var r span
	require.NoError(t, Decode(&r, "decode span", []byte("1::2"), parseSpan, keepSpan))
	require.Equal(t, span{from: "1", to: "2"}, r)

	require.NoError(t, Decode(&r, "decode span", []byte("1-2"), parseSpan, keepSpan), "text that does not parse is kept, not an error")
	require.Equal(t, span{raw: "1-2", malformed: true}, r)

	require.EqualError(t, Decode((*span)(nil), "decode span", []byte("1::2"), parseSpan, keepSpan),
		"checkout: decode span: nil pointer")
}

func TestValidate(t *testing.T) {
	require.NoError(t, Validate(span{from: "1", to: "2"}, false, "", parseSpan, ordered))

	err := Validate(span{from: "3", to: "2"}, false, "", parseSpan, ordered)
	var ve *valid.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, []valid.Problem{{Message: "from greater than to"}}, ve.Problems)

	err = Validate(keepSpan("1-2"), true, "1-2", parseSpan, ordered)
	require.ErrorAs(t, err, &ve)
	require.Equal(t, []valid.Problem{{Message: "malformed span 1-2"}}, ve.Problems, "a kept text is reported with parse's problem")

	allocs := testing.AllocsPerRun(100, func() { _ = Validate(span{from: "1", to: "2"}, false, "", parseSpan, ordered) })
	require.Zero(t, allocs, "a range that can be sent costs no allocation")
}
