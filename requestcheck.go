package checkout

import (
	"fmt"
	"net/url"
	"reflect"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/valid"
)

// What the calls check before they send anything, and the Validate
// scaffolding of the request types behind them.

// validateRequest is the Validate of request type T: a nil r is one
// problem, nilMessage; any other is checked by the rules of its tagged
// fields (checks) and then by more (when not nil), for what the tags
// cannot say.
func validateRequest[T any](r *T, nilMessage string, checks func() []fieldCheck, more func(c *valid.Collector)) error {
	var c valid.Collector
	if r == nil {
		c.Add("", nilMessage)
		return c.Err()
	}
	checkFields(&c, "", reflect.ValueOf(r).Elem(), checks())
	if more != nil {
		more(&c)
	}
	return c.Err()
}

// validator is a request that reports what the service would refuse.
type validator interface{ Validate() error }

// checkCall checks what op is about to send: that c is usable, then, in
// one *ValidationError, the problems of the path (pathErr) and of each of
// reqs.
func (c *Client) checkCall(op string, pathErr error, reqs ...validator) error {
	if err := c.usable(op); err != nil {
		return err
	}
	var problems valid.Collector
	mergeProblems(&problems, "", pathErr)
	for _, req := range reqs {
		mergeProblems(&problems, "", req.Validate())
	}
	return valid.ForOp(op, problems.Err())
}

// formFor checks a form call as checkCall does and returns req's form: its
// own form method's when it has one (for Extra keys), else the one its url
// tags give.
func (c *Client) formFor(op string, pathErr error, req validator) (url.Values, error) {
	if err := c.checkCall(op, pathErr, req); err != nil {
		return nil, err
	}
	var form url.Values
	var err error
	if f, ok := req.(interface{ form() (url.Values, error) }); ok {
		form, err = f.form()
	} else {
		form, err = query.Values(req)
	}
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: %w", op, err)
	}
	return form, nil
}
