package rangetext

import (
	"errors"
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

func parseSpan(s string) (span, error) {
	if len(s) != 4 || s[1:3] != "::" {
		return span{}, errors.New("malformed span " + s)
	}
	return span{from: s[:1], to: s[3:]}, nil
}

func keepSpan(text string) span { return span{raw: text, malformed: true} }

func TestDecode(t *testing.T) {
	var r span
	require.NoError(t, Decode(&r, "span", []byte("1::2"), parseSpan, keepSpan))
	require.Equal(t, span{from: "1", to: "2"}, r)

	require.NoError(t, Decode(&r, "span", []byte("1-2"), parseSpan, keepSpan), "text that does not parse is kept, not an error")
	require.Equal(t, span{raw: "1-2", malformed: true}, r)

	require.EqualError(t, Decode((*span)(nil), "span: UnmarshalText", []byte("1::2"), parseSpan, keepSpan),
		"span: UnmarshalText on a nil pointer")
}

func TestValidate(t *testing.T) {
	problem := func(msg string) func() string { return func() string { return msg } }

	require.NoError(t, Validate(false, "", parseSpan, problem("")))

	err := Validate(false, "", parseSpan, problem("from greater than to"))
	var ve *valid.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, []valid.Problem{{Message: "from greater than to"}}, ve.Problems)

	err = Validate(true, "1-2", parseSpan, problem("never asked"))
	require.ErrorAs(t, err, &ve)
	require.Equal(t, []valid.Problem{{Message: "malformed span 1-2"}}, ve.Problems, "a kept text is reported with parse's error")
}
