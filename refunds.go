package checkout

import (
	"context"
	"encoding/json"
	"time"

	"github.com/payorch/checkout-go/internal/valid"
)

// RefundRequest refunds part or all of an order ([Client.Refund]), sent as
// a form, or as JSON in the JWE+JWS mode ([WithJWE]).
type RefundRequest struct {
	// UniqueRequestID is your id of this refund (unique_request_id,
	// required). Reuse it when retrying the same refund: the service
	// refunds an id once, and refuses a second refund with it.
	UniqueRequestID string `url:"unique_request_id" json:"unique_request_id" check:"required"`
	// Amount is the sum to refund (amount), more than 0 and at most what
	// is left to refund. Leave it empty to refund the whole order.
	Amount Amount `url:"amount,omitempty" json:"amount,omitempty"`
}

var (
	refundChecks = checksOf[RefundRequest]("url")
	refundNames  = namesOf[RefundRequest]("url")
)

// Validate reports every problem that would make the service refuse the
// request as a *ValidationError whose paths are the form keys; nil when
// there is none.
func (r *RefundRequest) Validate() error {
	return validateRequest(r, "refund request is nil", refundChecks, func(c *valid.Collector) {
		checkRefundAmount(c, refundNames()["Amount"], r.Amount)
	})
}

// checkRefundAmount checks a refund's amount when it is set: an amount the
// client accepts, and not zero (the service refuses to refund nothing).
func checkRefundAmount(c *valid.Collector, path string, a Amount) {
	if a == "" {
		return
	}
	n := c.Len()
	checkAmount(c, path, a)
	if d, ok := decimal(string(a)); c.Len() == n && ok && d.Sign() == 0 {
		c.Add(path, "must be more than 0")
	}
}

// RefundStatus is the status of a refund.
type RefundStatus string

// The refund statuses the service documents.
const (
	// RefundPending is a refund queued at the service or the gateway. A
	// new refund starts so.
	RefundPending RefundStatus = "PENDING"
	// RefundSuccess is a refund the gateway carried out.
	RefundSuccess RefundStatus = "SUCCESS"
	// RefundFailure is a refund that failed: to try again, send a new
	// refund with a new unique request id.
	RefundFailure RefundStatus = "FAILURE"
	// RefundManualReview is a refund whose outcome the gateway left
	// unclear: reconcile it with the gateway yourself.
	RefundManualReview RefundStatus = "MANUAL_REVIEW"
)

// RefundType is how a refund reaches the customer (refund_type).
type RefundType string

// The refund types the service documents.
const (
	// RefundStandard refunds through the gateway the payment came from:
	// the default.
	RefundStandard RefundType = "STANDARD"
	// RefundInstant pays the refund out at once to the payment's source
	// (a stored card), where the service is set up for it.
	RefundInstant RefundType = "INSTANT"
	// RefundInstantWithFallback tries an instant refund and makes a
	// standard one when that fails.
	RefundInstantWithFallback RefundType = "INSTANT_WITH_FALLBACK"
)

// Refund is one refund: an element of an order's refunds, or the reply of
// [Client.RefundTransaction]. Raw keeps it as the service sent it.
type Refund struct {
	// ID is the gateway's reference of the refund, or, when it has none
	// yet, the unique request id.
	ID string `json:"id,omitempty" reply:"identifies"`
	// UniqueRequestID is your id of the refund.
	UniqueRequestID string `json:"unique_request_id,omitempty" reply:"identifies"`
	// Ref is the gateway's id of the refund.
	Ref string `json:"ref,omitempty"`
	// TxnID is the transaction refunded.
	TxnID string `json:"txn_id,omitempty"`
	// OrderID is your id of the order refunded.
	OrderID string `json:"order_id,omitempty"`
	// Status is the refund's status (PENDING, SUCCESS, FAILURE,
	// MANUAL_REVIEW).
	Status RefundStatus `json:"status,omitempty" reply:"identifies"`
	// Amount is the sum refunded, or to be refunded.
	Amount Amount `json:"amount,omitempty"`
	// Created is when the refund was made; zero when absent or unreadable.
	Created time.Time `json:"created,omitzero"`
	// SentToGateway reports whether the refund has reached the gateway
	// (refunds wait at the service for up to 15 minutes).
	SentToGateway bool `json:"sent_to_gateway"`
	// RefundType is how the refund is made (STANDARD, INSTANT).
	RefundType RefundType `json:"refund_type,omitempty"`
	// RefundSource is the gateway the refund goes through.
	RefundSource string `json:"refund_source,omitempty"`
	// Gateway is the gateway that carries out the refund.
	Gateway string `json:"gateway,omitempty"`
	// InitiatedBy says who asked for the refund: "API", a dashboard user,
	// or "AUTO_REFUNDED".
	InitiatedBy string `json:"initiated_by,omitempty"`
	// ARN is the acquirer's reference number, which the customer's bank
	// can trace (refund_arn; arn in some order replies).
	ARN string `json:"refund_arn,omitempty"`
	// ReferenceID is the gateway's reference number of the refund.
	ReferenceID string `json:"reference_id,omitempty"`
	// ResponseCode is the gateway's response code.
	ResponseCode string `json:"response_code,omitempty"`
	// EPGTxnID is the gateway's id of the refund transaction.
	EPGTxnID string `json:"epg_txn_id,omitempty"`
	// AuthorizationID is the issuer's authorisation code of the refund.
	AuthorizationID string `json:"authorization_id,omitempty"`
	// ErrorCode is the gateway's code, also on success for some gateways.
	ErrorCode string `json:"error_code,omitempty"`
	// ErrorMessage is the gateway's message, also on success for some
	// gateways.
	ErrorMessage string `json:"error_message,omitempty"`
	// Metadata holds the gateway's text details ("speed_processed").
	Metadata map[string]string `json:"metadata,omitempty"`
	// ProcessedAt is when the gateway processed the refund
	// (pg_processed_at).
	ProcessedAt time.Time `json:"pg_processed_at,omitzero"`
	// DeclinedAt is when the gateway declined the refund (pg_declined_at).
	DeclinedAt time.Time `json:"pg_declined_at,omitzero"`
	// ExpectedCreditAt is when the money should reach the customer
	// (expected_refund_credit_time), when the gateway says.
	ExpectedCreditAt time.Time `json:"expected_refund_credit_time,omitzero"`
	// Raw is the refund as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// refundFields reads a refund with the older arn key beside refund_arn.
type refundFields struct {
	plainRefund
	OldARN string `json:"arn"`
}

type plainRefund Refund

func (r *Refund) decode(body []byte) error {
	var w refundFields
	if err := decodeResponse(&w, body, nil); err != nil {
		return err
	}
	*r = Refund(w.plainRefund)
	if r.ARN == "" {
		r.ARN = w.OldARN
	}
	return nil
}

// UnmarshalJSON decodes one refund leniently (numbers as strings,
// "FILTERED", null); Raw keeps it whole. A value that is not a JSON object
// is an error; JSON null leaves r unchanged.
func (r *Refund) UnmarshalJSON(data []byte) error {
	return unmarshalReply(r, data, "refund")
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields, leaving empty ones out
// (sent_to_gateway is always written).
func (r Refund) MarshalJSON() ([]byte, error) {
	return marshalReply(r.Raw, plainRefund(r))
}

// Refund refunds part or all of an order and returns the order with its
// refunds (the new one PENDING). With req.Amount empty the whole order is
// refunded. Like every write, it is not retried after it may have reached
// the service; retry it yourself with the same UniqueRequestID after
// checking [Client.GetOrder].
func (c *Client) Refund(ctx context.Context, orderID string, req *RefundRequest, opts ...RequestOption) (*OrderStatus, error) {
	const op = "refund"
	path, err := orderPath(orderID)
	form, err := c.formFor(op, err, req)
	if err != nil {
		return nil, err
	}
	st, err := send(ctx, c, postForm(op, path+"/refunds", form).withJWE("/v4"+path+"/refunds", req), opts, decodeReply[OrderStatus])
	return st, aboutOrder(err, orderID)
}

// TransactionRefundRequest refunds one transaction, or an order by the
// refund type you choose ([Client.RefundTransaction]), sent as a form.
// Give TxnID to refund that transaction; give OrderID, usually with
// RefundType, to refund the order's payment the way RefundType says.
type TransactionRefundRequest struct {
	// UniqueRequestID is your id of this refund (unique_request_id,
	// required). Reuse it when retrying the same refund: the service
	// refunds an id once.
	UniqueRequestID string `url:"unique_request_id" check:"required"`
	// TxnID is the transaction to refund (txn_id), as
	// [OrderStatus].TxnID gives it. TxnID or OrderID is required.
	TxnID string `url:"txn_id,omitempty"`
	// OrderID is your id of the order to refund (order_id).
	OrderID string `url:"order_id,omitempty"`
	// Amount is the sum to refund (amount), more than 0. The service's
	// own examples always send it.
	Amount Amount `url:"amount,omitempty"`
	// RefundType is how the refund reaches the customer (refund_type):
	// [RefundStandard] when empty, [RefundInstant] or
	// [RefundInstantWithFallback] where the service is set up for
	// instant refunds. Other values are sent as they are.
	RefundType RefundType `url:"refund_type,omitempty"`
}

var (
	txnRefundChecks = checksOf[TransactionRefundRequest]("url")
	txnRefundNames  = namesOf[TransactionRefundRequest]("url")
)

// Validate reports every problem that would make the service refuse the
// request as a *ValidationError whose paths are the form keys; nil when
// there is none.
func (r *TransactionRefundRequest) Validate() error {
	return validateRequest(r, "transaction refund request is nil", txnRefundChecks, func(c *valid.Collector) {
		names := txnRefundNames()
		if r.TxnID == "" && r.OrderID == "" {
			c.Add(names["TxnID"], "is required when "+names["OrderID"]+" is empty: name what to refund")
		}
		checkRefundAmount(c, names["Amount"], r.Amount)
	})
}

// RefundTransaction refunds one transaction (by TxnID), or an order by
// refund type, instantly where the service is set up for it (by OrderID
// with RefundType), through POST /refunds. It returns the refund itself,
// not the order: watch it with [Client.GetOrder] or the refund webhooks.
// Like every write, it is not retried after it may have reached the
// service; retry it yourself with the same UniqueRequestID after checking
// [Client.GetOrder].
func (c *Client) RefundTransaction(ctx context.Context, req *TransactionRefundRequest, opts ...RequestOption) (*Refund, error) {
	const op = "refund transaction"
	form, err := c.formFor(op, nil, req)
	if err != nil {
		return nil, err
	}
	r, err := send(ctx, c, postForm(op, "/refunds", form), opts, decodeReply[Refund])
	return r, aboutOrder(err, req.OrderID)
}
