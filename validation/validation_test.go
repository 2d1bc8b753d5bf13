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
