package validation_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/validation"
)

func TestErrorString(t *testing.T) {
	require.Equal(t, "checkout: validate: invalid request", (&validation.Error{}).Error())
	require.Equal(t, "checkout: validate: invalid request: order_id: is required",
		(&validation.Error{Problems: []validation.Problem{{Path: "order_id", Message: "is required"}}}).Error())
	require.Equal(t, "checkout: create session: invalid request: a: x; b[0]: y; z",
		(&validation.Error{Op: "create session", Problems: []validation.Problem{
			{Path: "a", Message: "x"}, {Path: "b[0]", Message: "y"}, {Message: "z"}}}).Error())
	var nilErr *validation.Error
	require.Equal(t, "checkout: validate: invalid request", nilErr.Error())
	require.False(t, nilErr.Has("a"))
}

func TestErrorIsAndAs(t *testing.T) {
	var err error = fmt.Errorf("wrapped: %w", &validation.Error{Problems: []validation.Problem{{Path: "amount", Message: "is required"}}})
	require.ErrorIs(t, err, validation.ErrInvalidRequest)
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("amount"))
	require.False(t, ve.Has("order_id"))
	require.False(t, errors.Is(errors.New("checkout: invalid request"), validation.ErrInvalidRequest))
}

func TestWithOpCopies(t *testing.T) {
	ve := &validation.Error{Problems: []validation.Problem{{Path: "a", Message: "x"}}}
	got := ve.WithOp("refund")
	require.Equal(t, "refund", got.Op)
	require.Empty(t, ve.Op)
	got.Problems[0].Message = "changed"
	require.Equal(t, "x", ve.Problems[0].Message)
}

func TestProblemJSON(t *testing.T) {
	b, err := json.Marshal(validation.Error{Op: "create session", Problems: []validation.Problem{{Path: "amount", Message: "is required"}}})
	require.NoError(t, err)
	require.JSONEq(t, `{"op":"create session","problems":[{"path":"amount","message":"is required"}]}`, string(b))
}

func TestJoinAndIndex(t *testing.T) {
	for _, tt := range []struct{ prefix, path, want string }{
		{"", "options", "options"},
		{"payment_filter", "", "payment_filter"},
		{"payment_filter", "options", "payment_filter.options"},
		{"product_summary", "[2][0].color", "product_summary[2][0].color"},
	} {
		require.Equal(t, tt.want, validation.Join(tt.prefix, tt.path), "Join(%q, %q)", tt.prefix, tt.path)
	}
	require.Equal(t, "payment_filter.options[1].cardFilters[0]",
		validation.Index(validation.Join(validation.Index("payment_filter.options", 1), "cardFilters"), 0))
}

func TestAddMergeErr(t *testing.T) {
	var v validation.Error
	require.NoError(t, v.Err(), "nothing recorded is no error")
	v.Add("order_id", "is required")
	v.Merge("payment_filter", &validation.Error{Problems: []validation.Problem{{Path: "options[0]", Message: "x"}, {Message: "y"}}})
	v.Merge("sdk_udf", errors.New("plain"))
	v.Merge("ignored", nil)
	err := v.Err()
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, []validation.Problem{
		{Path: "order_id", Message: "is required"},
		{Path: "payment_filter.options[0]", Message: "x"},
		{Path: "payment_filter", Message: "y"},
		{Path: "sdk_udf", Message: "plain"},
	}, ve.Problems)
	v.Add("later", "z")
	require.Len(t, ve.Problems, 4, "Err returns a copy: later additions do not reach it")
}

// A constructor's refusal reads as a configuration's, not a request's,
// and unwraps to the one validation error type.
func TestConfigError(t *testing.T) {
	var v validation.Error
	require.NoError(t, v.ConfigErr("thing: new"))
	v.Add("Config.Lease", "is negative")
	v.Add("Config.Pool", "is required")
	err := v.ConfigErr("thing: new")
	require.EqualError(t, err, "checkout: thing: new: Config.Lease: is negative; Config.Pool: is required")
	var ce *validation.ConfigError
	require.ErrorAs(t, err, &ce)
	require.True(t, ce.Err.Has("Config.Pool"))
	require.ErrorIs(t, err, validation.ErrInvalidRequest)
	require.Equal(t, "checkout: config: <nil>", (*validation.ConfigError)(nil).Error())
}
