package checkout

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ConflictError is the replay of a write that found the order or refund
// made with another meaning. The rule of replays: when the outcome of
// CreateOrder, CreateSession, Refund or RefundTransaction is unknown (a
// [*TransportError] with MaybeDelivered, an [*APIError] with 500, 502 or
// 504, a reply that could not be opened, or the service answering that the
// order or refund already exists), the client reads the order with
// GetOrder. An order with the request's amount, currency and customer is
// returned with Replayed set (CreateSession asks again for a session of
// it); a refund with the request's unique_request_id and amount is
// returned with Replayed set. What differs is a *ConflictError naming the
// keys; when nothing was made, the request is sent again, at most
// RetryPolicy.MaxRetries times. A client without retries replays nothing.
type ConflictError struct {
	// Op is the call ("create order", "refund", …).
	Op string
	// OrderID is the order that exists.
	OrderID string
	// UniqueRequestID is the refund that exists; empty for an order.
	UniqueRequestID string
	// Fields are the keys that differ ("amount", "currency", "customer_id").
	Fields []string
	// Err is the failure that started the replay: the service's answer
	// that the order or refund exists, or the [*TransportError].
	Err error
}

// Error names the order or refund and the keys that differ.
func (e *ConflictError) Error() string {
	what := fmt.Sprintf("order %q", e.OrderID)
	if e.UniqueRequestID != "" {
		what = fmt.Sprintf("refund %q of %s", e.UniqueRequestID, what)
	}
	return fmt.Sprintf("checkout: %s: %s already exists with another %s", e.Op, what, strings.Join(e.Fields, ", "))
}

// Unwrap returns Err.
func (e *ConflictError) Unwrap() error { return e.Err }

// replayKey marks the context of a write sent again by a replay; its value
// is how many times it was.
type replayKey struct{}

// settle reads the order a write that failed with err was about. ok is
// false when err stands: the outcome is known, c replays nothing, or the
// order could not be read. Otherwise st is the order, nil when there is none.
func (c *Client) settle(ctx context.Context, orderID string, opts []RequestOption, err error) (st *OrderStatus, ok bool) {
	var te *TransportError
	var ae *APIError
	var je *JOSEError
	switch {
	case c == nil || c.retry.MaxRetries == 0 || orderID == "":
		return nil, false
	case errors.As(err, &te):
		ok = te.MaybeDelivered
	case errors.As(err, &ae) && (ae.HTTPStatus == 500 || ae.HTTPStatus == 502 || ae.HTTPStatus == 504):
		ok = true // the service may have acted before failing
	case errors.As(err, &ae):
		ok = ae.HTTPStatus/100 == 4 && strings.Contains(strings.ToLower(ae.ErrorMessage+" "+ae.UserMessage), "already exist")
	case errors.As(err, &je):
		ok = je.reply // sent, but its reply could not be opened; sealing failed before sending
	}
	if !ok {
		return nil, false
	}
	st, err = c.GetOrder(ctx, orderID, withoutMeta(opts)...)
	return st, err == nil || errors.Is(err, ErrNotFound)
}

// again returns the context to send a write again with, or false when
// the retry policy allows no more.
func (c *Client) again(ctx context.Context) (context.Context, bool) {
	n, _ := ctx.Value(replayKey{}).(int)
	return context.WithValue(ctx, replayKey{}, n+1), c != nil && n < c.retry.MaxRetries
}

// sameAmount reports whether a and b are the same decimal number.
func sameAmount(a, b Amount) bool {
	x, ok1 := decimal(string(a))
	y, ok2 := decimal(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// conflict compares an order with what a request set (a currency or
// customer left out is the service's choice): nil when they agree.
func conflict(op, orderID string, st *OrderStatus, amount Amount, currency, customerID string, err error) error {
	var d []string
	if !sameAmount(amount, st.Amount) {
		d = append(d, keyAmount)
	}
	if currency != "" && !strings.EqualFold(currency, st.Currency) {
		d = append(d, "currency")
	}
	if customerID != "" && customerID != st.CustomerID {
		d = append(d, keyCustomerID)
	}
	if d == nil {
		return nil
	}
	return &ConflictError{Op: op, OrderID: orderID, Fields: d, Err: err}
}

// replayOrder settles a CreateOrder that failed with err (see ConflictError).
func (c *Client) replayOrder(ctx context.Context, req *OrderRequest, opts []RequestOption, err error) (*Order, error) {
	st, ok := c.settle(ctx, req.OrderID, opts, err)
	if ctx, more := c.again(ctx); ok && st == nil && more {
		return c.CreateOrder(ctx, req, opts...)
	}
	if !ok || st == nil {
		return nil, err
	}
	if err := conflict("create order", req.OrderID, st, req.Amount, req.Currency, req.CustomerID, err); err != nil {
		return nil, err
	}
	// The order status has no client auth token and no collection links:
	// a replayed order is without them (CreateSession gives a token).
	return &Order{
		Status: st.Status, StatusID: st.StatusID, ID: st.ID, OrderID: st.OrderID, PaymentLinks: st.PaymentLinks, MerchantID: st.MerchantID,
		Amount: st.Amount, Currency: st.Currency, CustomerID: st.CustomerID, CustomerEmail: st.CustomerEmail,
		CustomerPhone: st.CustomerPhone, ProductID: st.ProductID, ReturnURL: st.ReturnURL, Raw: st.Raw, Replayed: true,
	}, nil
}

// replaySession settles a CreateSession that failed with err (see
// ConflictError).
func (c *Client) replaySession(ctx context.Context, req *SessionRequest, opts []RequestOption, err error) (*Session, error) {
	st, ok := c.settle(ctx, req.OrderID, opts, err)
	ctx, more := c.again(ctx)
	if !ok || !more {
		return nil, err
	}
	if st != nil {
		if err := conflict("create session", req.OrderID, st, req.Amount, req.Currency, req.CustomerID, err); err != nil {
			return nil, err
		}
	}
	s, err := c.CreateSession(ctx, req, opts...)
	if s != nil && st != nil {
		s.Replayed = true
	}
	return s, err
}

// replayRefund settles a refund with id of orderID that failed with err
// (see ConflictError): the order and the refund found, marked replayed,
// or the context to send it again with.
func (c *Client) replayRefund(ctx context.Context, op, orderID, id string, amount Amount, opts []RequestOption, err error) (*OrderStatus, *Refund, context.Context, error) {
	st, ok := c.settle(ctx, orderID, opts, err)
	if !ok || st == nil {
		return nil, nil, nil, err
	}
	if r := findRefund(st, id); r != nil {
		if amount != "" && !sameAmount(amount, r.Amount) {
			return nil, nil, nil, &ConflictError{Op: op, OrderID: orderID, UniqueRequestID: id, Fields: []string{keyAmount}, Err: err}
		}
		r.Replayed = true
		return st, r, nil, nil
	}
	if ctx, more := c.again(ctx); more {
		return nil, nil, ctx, err
	}
	return nil, nil, nil, err
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

// replayOrderRefund settles a Refund that failed with err.
func (c *Client) replayOrderRefund(ctx context.Context, orderID string, req *RefundRequest, opts []RequestOption, err error) (*OrderStatus, error) {
	st, _, again, err := c.replayRefund(ctx, "refund", orderID, req.UniqueRequestID, req.Amount, opts, err)
	if again != nil {
		return c.Refund(again, orderID, req, opts...)
	}
	return st, err
}

// replayTxnRefund settles a RefundTransaction that failed with err. A
// refund by txn_id alone is looked up in the order the txn_id names
// ("<merchant>-<order>-<n>").
func (c *Client) replayTxnRefund(ctx context.Context, req *TransactionRefundRequest, opts []RequestOption, err error) (*Refund, error) {
	orderID := req.OrderID
	if c != nil && orderID == "" {
		rest, ok := strings.CutPrefix(req.TxnID, c.merchantID+"-")
		if i := strings.LastIndexByte(rest, '-'); ok && i > 0 {
			orderID = rest[:i]
		}
	}
	_, r, again, err := c.replayRefund(ctx, "refund transaction", orderID, req.UniqueRequestID, req.Amount, opts, err)
	if again != nil {
		return c.RefundTransaction(again, req, opts...)
	}
	return r, err
}
