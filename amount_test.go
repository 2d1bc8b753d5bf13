package checkout

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAmountFromMinor(t *testing.T) {
	for _, tt := range []struct {
		minor int64
		want  Amount
	}{
		{12345, "123.45"}, {0, "0.00"}, {5, "0.05"}, {50, "0.50"}, {100, "1.00"}, {149900, "1499.00"},
		{-5, "-0.05"}, {-12345, "-123.45"},
		{math.MaxInt64, "92233720368547758.07"}, {math.MinInt64, "-92233720368547758.08"},
	} {
		require.Equal(t, tt.want, AmountFromMinor(tt.minor), "%d", tt.minor)
	}
}

func TestParseAmount(t *testing.T) {
	for _, tt := range []struct {
		s     string
		minor int64
	}{
		{"0.00", 0}, {"0.50", 50}, {"99.50", 9950}, {"1499.00", 149900}, {"1000000.01", 100000001},
		{"9999999999999999.99", 999999999999999999}, {"1", 100}, {"1.0", 100}, {"10.00", 1000}, {"99.5", 9950},
		{"100", 10000}, {"099.00", 9900}, {"0", 0},
	} {
		a, err := ParseAmount(tt.s)
		require.NoError(t, err, tt.s)
		require.Equal(t, Amount(tt.s), a, "kept as written")
		m, err := a.Minor()
		require.NoError(t, err)
		require.Equal(t, tt.minor, m, tt.s)
	}
	for _, tt := range []struct{ s, msg string }{
		{"", "decimal text"}, {"99.", "decimal text"}, {".50", "decimal text"}, {"99.500", "at most two decimal places"},
		{"1.005", "at most two decimal places"}, {"1e3", "decimal text"}, {"-1.00", "must not be negative"},
		{"-5", "must not be negative"}, {"+1.00", "decimal text"}, {"1,000.00", "decimal text"}, {" 1.00", "decimal text"},
		{"1.00 ", "decimal text"}, {"1.0O", "decimal text"}, {"NaN", "decimal text"}, {"Inf", "decimal text"},
		{"99999999999999999.99", "at most 16 digits"}, {"1.-1", "decimal text"}, {"--1", "decimal text"},
	} {
		_, err := ParseAmount(tt.s)
		require.Error(t, err, "%q", tt.s)
		require.Contains(t, err.Error(), tt.msg, "%q", tt.s)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: amount: "), err.Error())
		require.NotContains(t, err.Error(), "\n")
	}
}

func TestAmountUnmarshalJSON(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"10.00"`, "10.00"}, {`"100.0"`, "100.00"}, {`9000`, "9000.00"}, {`1`, "1.00"}, {`2.5`, "2.50"},
		{`"1.005"`, "1.005"}, {`1.50000`, "1.50"}, {`1e2`, "100.00"}, {`1.5E1`, "15.00"}, {`-0.0`, "0.00"},
		{`0.01`, "0.01"}, {`1e-3`, "1e-3"}, {`null`, ""}, {`1e999999999`, "1e999999999"}, {`"1E+2"`, "100.00"},
	} {
		var a Amount
		require.NoError(t, json.Unmarshal([]byte(tt.in), &a), tt.in)
		require.Equal(t, Amount(tt.want), a, tt.in)
	}
	for _, in := range []string{`"FILTERED"`, `true`, `{}`, `"1,00"`, `"+1"`} {
		a := Amount("9.00")
		require.NoError(t, json.Unmarshal([]byte(in), &a), in)
		require.Empty(t, a, "%s is no amount: it reads as empty (the reply's Raw keeps it)", in)
	}
	b, err := json.Marshal(struct{ A Amount }{"1.50"})
	require.NoError(t, err)
	require.Equal(t, `{"A":"1.50"}`, string(b), "amounts go on the wire as JSON strings")
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"0.00", "99.5", "1499.00", "-1.00", "1e3", "9999999999999999.99", "1", "07.1", "00.00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAmount(s)
		if err != nil {
			return
		}
		m, err := a.Minor()
		if err != nil {
			t.Fatalf("ParseAmount(%q) accepted but Minor failed: %v", s, err)
		}
		if m < 0 {
			t.Fatalf("negative minor units from %q", s)
		}
		if !sameDecimal(t, s, string(AmountFromMinor(m))) {
			t.Fatalf("round trip %q -> %d -> %q changed the value", s, m, AmountFromMinor(m))
		}
		if a.places() == 2 && (s[0] != '0' || s[1] == '.') && AmountFromMinor(m) != a {
			t.Fatalf("round trip %q -> %d -> %q", s, m, AmountFromMinor(m))
		}
		if f, err := strconv.ParseFloat(s, 64); err != nil || f < 0 {
			t.Fatalf("accepted %q is not a non-negative number", s)
		}
	})
}

// Whatever number text the service sends, normalisation either keeps its
// value exactly or leaves it as sent.
func FuzzNormaliseDecimal(f *testing.F) {
	for _, s := range []string{"1", "100.0", "1.005", "1e2", "-0.0", "0.10", "12345678901234567890.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		out, ok := normaliseDecimal(s)
		if !ok {
			return
		}
		dot := strings.IndexByte(out, '.')
		if dot < 0 || len(out)-dot-1 != 2 {
			t.Fatalf("normaliseDecimal(%q) = %q: not two places", s, out)
		}
		if !sameDecimal(t, s, out) {
			t.Fatalf("normaliseDecimal(%q) = %q changed the value", s, out)
		}
	})
}

func sameDecimal(t *testing.T, a, b string) bool {
	t.Helper()
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}

// A negative minor amount gives text with a minus sign, which Minor,
// ParseAmount and every Validate refuse, the latter at the field's path.
func TestAmountFromMinorNegative(t *testing.T) {
	a := AmountFromMinor(-5)
	require.Equal(t, Amount("-0.05"), a)
	require.Equal(t, Amount("-123.45"), AmountFromMinor(-12345))
	_, err := ParseAmount(string(a))
	require.ErrorContains(t, err, "must not be negative")
	_, err = a.Minor()
	require.ErrorContains(t, err, "must not be negative")

	for _, tc := range []struct {
		name string
		err  error
		path string
	}{
		{"order", func() error { r := fullOrder(); r.Amount = a; return r.Validate() }(), "amount"},
		{"subvention", func() error { r := fullOrder(); r.SubventionAmount = a; return r.Validate() }(), "metadata.subvention_amount"},
		{"session", func() error { r := baseSession(); r.Amount = a; return r.Validate() }(), "amount"},
		{"mandate", func() error {
			r := baseSession()
			r.Mandate = &Mandate{Option: MandateRequired, MaxAmount: a}
			return r.Validate()
		}(), "mandate.max_amount"},
		{"update", (&UpdateOrderRequest{Amount: a}).Validate(), "amount"},
		{"refund", (&RefundRequest{UniqueRequestID: "r", Amount: a}).Validate(), "amount"},
	} {
		var ve *ValidationError
		require.ErrorAs(t, tc.err, &ve, tc.name)
		require.Equal(t, []Problem{{Path: tc.path, Message: "must not be negative"}}, ve.Problems, tc.name)
	}
}

// A number too long to be an amount is no amount: it is never handed to
// big.Rat, whose parse time grows faster than its length.
func TestLongDecimalRefused(t *testing.T) {
	long := "1" + strings.Repeat("0", 100) + "e-98"
	_, ok := decimal(long)
	require.False(t, ok)
	_, ok = normaliseDecimal(long)
	require.False(t, ok)
	_, ok = decimal("1" + strings.Repeat("0", 60))
	require.True(t, ok, "61 digits is still read")
	st := OrderStatus{Status: StatusCharged, Amount: Amount(long)}
	require.Error(t, st.CheckPaid("100.00"))
}
