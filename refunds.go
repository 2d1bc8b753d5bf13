package checkout

import (
	"context"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// RefundRequest refunds part or all of an order ([Client.Refund]), sent as
// a form, or as JSON in the JWE+JWS mode ([WithJWE]).
type RefundRequest struct {
	// UniqueRequestID is your id of this refund (unique_request_id,
	// required). Reuse it when retrying the same refund: the service
	// refunds an id once, and refuses a second refund with it.
	UniqueRequestID string `url:"unique_request_id" json:"unique_request_id"`
	// Amount is the sum to refund (amount), more than 0 and at most what
	// is left to refund. Leave it empty to refund the whole order.
	Amount Amount `url:"amount,omitempty" json:"amount,omitempty"`
}

// Validate reports every problem that would make the service refuse the
// request as a *ValidationError whose paths are the form keys: a missing
// unique_request_id, an amount the service does not take or of 0, text
// that is not valid UTF-8. nil when there is none.
func (r *RefundRequest) Validate() error {
	if r == nil {
		return nilRequest("refund request is nil")
	}
	var v validation.Error
	checkRequired(&v, "unique_request_id", r.UniqueRequestID)
	checkForm(&v, r)
	checkRefundAmount(&v, keyAmount, r.Amount)
	return v.Err()
}

// checkRefundAmount checks a refund's amount when it is set: an amount the
// client accepts, and not zero (the service refuses to refund nothing).
func checkRefundAmount(v *validation.Error, path string, a Amount) {
	if a == "" {
		return
	}
	if msg := amountProblem(string(a)); msg != "" {
		v.Add(path, msg)
	} else if d, ok := decimal(string(a)); ok && d.Sign() == 0 {
		v.Add(path, "must be more than 0")
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
// [Client.RefundTransaction], whose Raw keeps it as the service sent it.
type Refund struct {
	// ID is the gateway's reference of the refund, or, when it has none
	// yet, the unique request id.
	ID string `json:"id,omitempty"`
	// UniqueRequestID is your id of the refund.
	UniqueRequestID string `json:"unique_request_id,omitempty"`
	// Ref is the gateway's id of the refund.
	Ref string `json:"ref,omitempty"`
	// TxnID is the transaction refunded.
	TxnID string `json:"txn_id,omitempty"`
	// OrderID is your id of the order refunded.
	OrderID string `json:"order_id,omitempty"`
	// Status is the refund's status (PENDING, SUCCESS, FAILURE,
	// MANUAL_REVIEW).
	Status RefundStatus `json:"status,omitempty"`
	// Amount is the sum refunded, or to be refunded.
	Amount Amount `json:"amount,omitempty"`
	// Created is when the refund was made; zero when absent or unreadable.
	Created Timestamp `json:"created,omitzero"`
	// SentToGateway reports whether the refund has reached the gateway
	// (refunds wait at the service for up to 15 minutes).
	SentToGateway Bool `json:"sent_to_gateway"`
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
	// can trace (refund_arn); some order replies name it arn: see OrderARN.
	ARN string `json:"refund_arn,omitempty"`
	// OrderARN is the acquirer's reference number as some order replies
	// name it (arn).
	OrderARN string `json:"arn,omitempty"`
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
	// Metadata holds the gateway's details ("speed_processed"), numbers
	// as their text.
	Metadata TextMap `json:"metadata,omitempty"`
	// SplitRefundDetails are the parts of a refund of a split payment,
	// one per sub-account (split_refund_details).
	SplitRefundDetails []Split `json:"split_refund_details,omitempty"`
	// BankProcessedAt is when the bank processed the refund.
	BankProcessedAt Timestamp `json:"bank_processed_at,omitzero"`
	// ProcessedAt is when the gateway processed the refund
	// (pg_processed_at).
	ProcessedAt Timestamp `json:"pg_processed_at,omitzero"`
	// DeclinedAt is when the gateway declined the refund (pg_declined_at).
	DeclinedAt Timestamp `json:"pg_declined_at,omitzero"`
	// ExpectedCreditAt is when the money should reach the customer
	// (expected_refund_credit_time), when the gateway says.
	ExpectedCreditAt Timestamp `json:"expected_refund_credit_time,omitzero"`
	// Raw is the refund as the service sent it.
	Raw RawJSON `json:"-"`
	// Replayed reports a refund found by a replay (see [ConflictError]).
	Replayed bool `json:"-"`
}

func (r *Refund) decode(body []byte) error {
	*r = Refund{} // nothing of an earlier reply (one refused, before a replay) stays
	return decodeObject(body, r, &r.Raw, r.shapeError)
}

func (r *Refund) names() (string, Status) { return r.OrderID, "" }

func (r *Refund) shapeError() error {
	if r.ID == "" && r.UniqueRequestID == "" && r.Status == "" {
		return notA("a refund", "id, unique_request_id, status")
	}
	return nil
}

// Refund refunds part or all of an order and returns the order with its
// refunds (the new one PENDING). With req.Amount empty the whole order is
// refunded. When the outcome is unknown, the client looks for the refund's
// UniqueRequestID in the order before sending again (see [ConflictError]).
func (c *Client) Refund(ctx context.Context, orderID string, req *RefundRequest, opts ...RequestOption) (*OrderStatus, error) {
	const op = "refund"
	path, err := orderPath(orderID)
	form, err := validForm(op, req, checkAll(err, req.Validate()))
	if err != nil {
		return nil, err
	}
	jweBody, err := marshalNoEscape(req)
	if err != nil {
		return nil, invalid(op, err)
	}
	st := new(OrderStatus)
	cl := orderForm(op, "Refund", "/orders/{order_id}/refunds", path+"/refunds", orderID, form)
	cl.v4 = &v4Call{route: "/v4/orders/{order_id}/refunds", path: "/v4" + path + "/refunds", body: jweBody}
	cl.settle = settleRefund(op, orderID, req.UniqueRequestID, req.Amount, func(found *OrderStatus, _ *Refund) { *st = *found })
	if err := c.do(ctx, cl, opts, st); err != nil {
		return nil, err
	}
	return st, nil
}

// TransactionRefundRequest refunds one transaction, or an order by the
// refund type you choose ([Client.RefundTransaction]), sent as a form.
// Give TxnID to refund that transaction; give OrderID, usually with
// RefundType, to refund the order's payment the way RefundType says.
type TransactionRefundRequest struct {
	// UniqueRequestID is your id of this refund (unique_request_id,
	// required). Reuse it when retrying the same refund: the service
	// refunds an id once.
	UniqueRequestID string `url:"unique_request_id"`
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

// Validate reports every problem that would make the service refuse the
// request as a *ValidationError whose paths are the form keys: a missing
// unique_request_id, neither txn_id nor order_id, an amount the service
// does not take or of 0, text that is not valid UTF-8. nil when there is
// none.
func (r *TransactionRefundRequest) Validate() error {
	if r == nil {
		return nilRequest("transaction refund request is nil")
	}
	var v validation.Error
	checkRequired(&v, "unique_request_id", r.UniqueRequestID)
	if r.TxnID == "" && r.OrderID == "" {
		v.Add("txn_id", "is required when "+keyOrderID+" is empty: name what to refund")
	}
	checkRefundAmount(&v, keyAmount, r.Amount)
	checkForm(&v, r)
	return v.Err()
}

// RefundTransaction refunds one transaction (by TxnID), or an order by
// refund type, instantly where the service is set up for it (by OrderID
// with RefundType), through POST /refunds. It returns the refund itself,
// not the order: watch it with [Client.GetOrder] or the refund webhooks.
// When the outcome is unknown, the client looks for the refund's
// UniqueRequestID in the order before sending again (see [ConflictError]);
// a refund by TxnID alone is looked up in the order the TxnID names
// ("<merchant>-<order>-<n>").
func (c *Client) RefundTransaction(ctx context.Context, req *TransactionRefundRequest, opts ...RequestOption) (*Refund, error) {
	const op = "refund transaction"
	form, err := validForm(op, req, req.Validate())
	if err != nil {
		return nil, err
	}
	orderID := req.OrderID
	if rest, ok := strings.CutPrefix(req.TxnID, c.merchant()+"-"); orderID == "" && ok {
		if i := strings.LastIndexByte(rest, '-'); i > 0 {
			orderID = rest[:i]
		}
	}
	r := new(Refund)
	cl := orderForm(op, "RefundTransaction", "/refunds", "/refunds", req.OrderID, form)
	cl.settle = settleRefund(op, orderID, req.UniqueRequestID, req.Amount, func(_ *OrderStatus, found *Refund) { *r = *found })
	if err := c.do(ctx, cl, opts, r); err != nil {
		return nil, err
	}
	return r, nil
}

// settleRefund is the settle step of a refund of order id under the
// unique request id uid: found with the same amount it is handed to found
// (the call returns it), with another a *ConflictError; not found, the
// refund may be sent again. An order that cannot be read leaves cause.
func settleRefund(op, id, uid string, amount Amount, found func(*OrderStatus, *Refund)) settleFunc {
	return func(read readFunc, cause error) (settled, error) {
		if id == "" {
			return unsettled, cause
		}
		st, err := readOrder(read, id)
		if err != nil || st == nil {
			return unsettled, cause
		}
		r := findRefund(st, uid)
		switch {
		case r == nil:
			return absent, cause
		case amount != "" && !amount.equal(r.Amount):
			return unsettled, &ConflictError{Op: op, OrderID: id, UniqueRequestID: uid, Fields: []string{keyAmount}, Err: cause}
		}
		r.Replayed = true
		found(st, r)
		return replayed, nil
	}
}

// findRefund returns the refund of st with the unique request id, in the
// order's refunds or a transaction's of txn_list, or nil.
func findRefund(st *OrderStatus, id string) *Refund {
	for i := range st.Refunds {
		if st.Refunds[i].UniqueRequestID == id {
			return &st.Refunds[i]
		}
	}
	for t := range st.TxnList {
		if r := findRefund(&st.TxnList[t], id); r != nil {
			return r
		}
	}
	return nil
}
