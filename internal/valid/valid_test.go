package valid

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJoinAndIndex(t *testing.T) {
	tests := []struct{ prefix, path, want string }{
		{"", "options", "options"},
		{"payment_filter", "", "payment_filter"},
		{"payment_filter", "options", "payment_filter.options"},
		{"product_summary", "[2][0].color", "product_summary[2][0].color"},
		{"payment_filter", "emiOptions.noCostEmi", "payment_filter.emiOptions.noCostEmi"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, Join(tt.prefix, tt.path), "Join(%q, %q)", tt.prefix, tt.path)
	}
	require.Equal(t, "payment_filter.options[1].cardFilters[0].cardBins[2]",
		Index(Join(Index(Join(Index("payment_filter.options", 1), "cardFilters"), 0), "cardBins"), 2))
}

func TestCollector(t *testing.T) {
	var c Collector
	require.NoError(t, c.Err(), "the zero Collector has nothing to report")
	require.Zero(t, c.Len())

	c.Add("order_id", "is required")
	c.Addf("amount", "must have two decimal places, got ", `"1.5"`)
	require.Equal(t, 2, c.Len())

	err := c.Err()
	var ve *Error
	require.True(t, errors.As(err, &ve))
	require.Equal(t, []Problem{
		{Path: "order_id", Message: "is required"},
		{Path: "amount", Message: `must have two decimal places, got "1.5"`},
	}, ve.Problems)
	require.True(t, ve.Has("amount"))
	require.False(t, ve.Has("customer_id"))

	// The error owns a copy: later additions do not change it.
	c.Add("customer_id", "is required")
	require.Len(t, ve.Problems, 2)
}

func TestMerge(t *testing.T) {
	var inner Collector
	inner.Add("options[0].enable", "is required")
	inner.Add("[1]", "is empty")

	var c Collector
	c.Merge("payment_filter", inner.Err())
	c.Merge("sdk_udf", fmt.Errorf("plain error"))
	c.Merge("ignored", nil)

	var ve *Error
	require.ErrorAs(t, c.Err(), &ve)
	require.Equal(t, []Problem{
		{Path: "payment_filter.options[0].enable", Message: "is required"},
		{Path: "payment_filter[1]", Message: "is empty"},
		{Path: "sdk_udf", Message: "plain error"},
	}, ve.Problems)
}

func TestForOp(t *testing.T) {
	require.NoError(t, ForOp("create session", nil))
	ve := &Error{Problems: []Problem{{Path: "amount", Message: "is required"}}}
	err := ForOp("create session", ve)
	require.EqualError(t, err, "checkout: create session: invalid request: amount: is required")
	require.Empty(t, ve.Op, "ForOp must not change its argument")
	require.EqualError(t, ForOp("refund", fmt.Errorf("boom")), "checkout: refund: boom")
}
