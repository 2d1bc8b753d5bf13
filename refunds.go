package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/lenient"
	"github.com/payorch/checkout-go/internal/valid"
)

// RefundRequest refunds part or all of an order ([Client.Refund]), sent as
// a form, or as JSON in the JWE+JWS mode ([WithJWE]).
type RefundRequest struct {
	// UniqueRequestID is your id of this refund (unique_request_id,
	// required). Reuse it when retrying the same refund: the service
	// refunds an id once.
	UniqueRequestID string `url:"unique_request_id" json:"unique_request_id" check:"required"`
	// Amount is the sum to refund (amount, required), more than 0.
	Amount Amount `url:"amount" json:"amount" check:"required,amount"`
}

var (
	refundChecks = checksOf[RefundRequest]("url")
	refundNames  = namesOf[RefundRequest]("url")
)

// Validate reports every problem that would make the service refuse the
// request as a *ValidationError whose paths are the form keys; nil when
// there is none.
func (r *RefundRequest) Validate() error {
	if r == nil {
		return &ValidationError{Problems: []Problem{{Message: "refund request is nil"}}}
	}
	var c valid.Collector
	checkFields(&c, "", reflect.ValueOf(r).Elem(), refundChecks())
	if m, err := r.Amount.Minor(); err == nil && m == 0 {
		c.Add(refundNames()["Amount"], "must be more than 0.00")
	}
	return c.Err()
}

// Refund is one refund of an order.
type Refund struct {
	// ID is the service's id of the refund.
	ID string `json:"id,omitempty"`
	// UniqueRequestID is your id of the refund.
	UniqueRequestID string `json:"unique_request_id,omitempty"`
	// Ref is the gateway's reference of the refund.
	Ref string `json:"ref,omitempty"`
	// Status is the refund's status ("PENDING", "SUCCESS", …).
	Status string `json:"status,omitempty"`
	// Amount is the sum refunded.
	Amount Amount `json:"amount,omitempty"`
	// Created is when the refund was made; zero when absent or unreadable.
	Created time.Time `json:"created,omitzero"`
	// SentToGateway reports whether the refund has reached the gateway.
	SentToGateway bool `json:"sent_to_gateway"`
	// InitiatedBy says who asked for the refund.
	InitiatedBy string `json:"initiated_by,omitempty"`
	// RefundType is how the refund is made ("STANDARD", "INSTANT").
	RefundType string `json:"refund_type,omitempty"`
	// RefundSource is where the refund was asked for.
	RefundSource string `json:"refund_source,omitempty"`
	// ErrorCode is the gateway's code when the refund failed.
	ErrorCode string `json:"error_code,omitempty"`
	// ErrorMessage is the gateway's message when the refund failed.
	ErrorMessage string `json:"error_message,omitempty"`
	// Raw is the refund as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes one refund leniently (numbers as strings,
// "FILTERED", null); Raw keeps it whole. A value that is not a JSON object
// is an error; JSON null leaves r unchanged.
func (r *Refund) UnmarshalJSON(data []byte) error {
	if r == nil {
		return errNilTarget("Refund")
	}
	if kindOf(data) == "null" {
		return nil
	}
	type plain Refund
	var p plain
	if err := lenient.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("checkout: refund: %w", err)
	}
	p.Raw = bytes.Clone(data)
	*r = Refund(p)
	return nil
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields, leaving empty ones out
// (sent_to_gateway is always written).
func (r Refund) MarshalJSON() ([]byte, error) {
	if len(r.Raw) > 0 {
		return r.Raw, nil
	}
	type plain Refund
	return json.Marshal(plain(r))
}

// Refund refunds part or all of an order and returns the order with its
// refunds. Like every write, it is not retried after it may have reached
// the service; retry it yourself with the same UniqueRequestID after
// checking [Client.GetOrder].
func (c *Client) Refund(ctx context.Context, orderID string, req *RefundRequest, opts ...RequestOption) (*OrderStatus, error) {
	const op = "refund"
	if err := c.usable(op); err != nil {
		return nil, err
	}
	var problems valid.Collector
	path, err := orderPath(orderID)
	mergeProblems(&problems, "", err)
	mergeProblems(&problems, "", req.Validate())
	if err := problems.Err(); err != nil {
		return nil, valid.ForOp(op, err)
	}
	form, err := query.Values(req)
	if err != nil {
		return nil, fmt.Errorf("checkout: %s: %w", op, err)
	}
	return send(ctx, c, postForm(op, path+"/refunds", form).withJWE("/v4"+path+"/refunds", req), opts, decodeReply[OrderStatus])
}
