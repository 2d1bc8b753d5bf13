package checkout

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ConflictError is the replay of a write that found the order already made
// with another meaning. The rule of replays, for every write: when the
// outcome of CreateOrder, CreateSession, Refund or RefundTransaction is
// unknown (a [*TransportError] with MaybeDelivered, or the service
// answering that the order or refund already exists), the client reads the
// order with GetOrder, as the merchant would:
//
//   - CreateOrder: an order with the same amount, currency and customer is
//     returned with Replayed set; one that differs is a *ConflictError
//     naming the fields; no order means nothing was made, and the request
//     is sent again, at most RetryPolicy.MaxRetries times in all.
//   - CreateSession: the same read; when the order exists with the same
//     meaning, or not at all, a session is asked for again (the service
//     gives a new session for an existing order with the same amount), and
//     one for an existing order has Replayed set.
//   - Refund and RefundTransaction: the refund with the request's
//     unique_request_id is looked up in the order and returned with its
//     Replayed set (another amount is a *ConflictError); when there is
//     none, the refund is sent again likewise.
//
// A client without retries ([RetryPolicy] MaxRetries 0) replays nothing.
type ConflictError struct {
	// Op is the call ("create order", "create session").
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

// Error names the order or refund and the fields that differ.
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

// unknownOutcome reports whether err leaves a write's outcome unknown and
// c replays writes.
func (c *Client) unknownOutcome(err error) bool {
	if c == nil || c.retry.MaxRetries == 0 {
		return false
	}
	var te *TransportError
	if errors.As(err, &te) {
		return te.MaybeDelivered
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.HTTPStatus < 400 || ae.HTTPStatus >= 500 {
		return false
	}
	text := ae.ErrorMessage + " " + ae.UserMessage
	if ae.Info != nil {
		for _, f := range ae.Info.Fields {
			text += " " + f.Reason
		}
	}
	return strings.Contains(strings.ToLower(text), "already exist")
}

// again returns the context to send a write again with, or false when
// the retry policy allows no more.
func (c *Client) again(ctx context.Context) (context.Context, bool) {
	n, _ := ctx.Value(replayKey{}).(int)
	if n >= c.retry.MaxRetries {
		return ctx, false
	}
	return context.WithValue(ctx, replayKey{}, n+1), true
}

// lookup reads the order a write with an unknown outcome was about: the
// status, or nil and true when there is no such order; false when the
// order could not be read.
func (c *Client) lookup(ctx context.Context, orderID string, opts []RequestOption) (*OrderStatus, bool) {
	st, err := c.GetOrder(ctx, orderID, opts...)
	if err != nil {
		return nil, errors.Is(err, ErrNotFound)
	}
	return st, true
}

// differs returns the keys of the order that differ from the request's,
// which the request sets (a currency or customer left out is the service's
// choice).
func differs(st *OrderStatus, amount Amount, currency, customerID string) []string {
	var out []string
	if !sameAmount(amount, st.Amount) {
		out = append(out, keyAmount)
	}
	if currency != "" && !strings.EqualFold(currency, st.Currency) {
		out = append(out, "currency")
	}
	if customerID != "" && customerID != st.CustomerID {
		out = append(out, keyCustomerID)
	}
	return out
}

// sameAmount reports whether a and b are the same decimal number.
func sameAmount(a, b Amount) bool {
	x, ok1 := decimal(string(a))
	y, ok2 := decimal(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// replayOrder settles a CreateOrder that failed with err (see ConflictError).
func (c *Client) replayOrder(ctx context.Context, req *OrderRequest, opts []RequestOption, err error) (*Order, error) {
	if !c.unknownOutcome(err) {
		return nil, err
	}
	st, ok := c.lookup(ctx, req.OrderID, opts)
	switch {
	case !ok:
		return nil, err
	case st == nil:
		if ctx, ok := c.again(ctx); ok {
			return c.CreateOrder(ctx, req, opts...)
		}
		return nil, err
	}
	if d := differs(st, req.Amount, req.Currency, req.CustomerID); d != nil {
		return nil, &ConflictError{Op: "create order", OrderID: req.OrderID, Fields: d, Err: err}
	}
	return &Order{
		Status: string(st.Status), ID: st.ID, OrderID: st.OrderID, PaymentLinks: st.PaymentLinks, MerchantID: st.MerchantID,
		Amount: st.Amount, Currency: st.Currency, CustomerID: st.CustomerID, CustomerEmail: st.CustomerEmail,
		CustomerPhone: st.CustomerPhone, ProductID: st.ProductID, ReturnURL: st.ReturnURL, Raw: st.Raw, Replayed: true,
	}, nil
}

// replaySession settles a CreateSession that failed with err (see
// ConflictError).
func (c *Client) replaySession(ctx context.Context, req *SessionRequest, opts []RequestOption, err error) (*Session, error) {
	if !c.unknownOutcome(err) || req.OrderID == "" {
		return nil, err
	}
	st, ok := c.lookup(ctx, req.OrderID, opts)
	if !ok {
		return nil, err
	}
	if st != nil {
		if d := differs(st, req.Amount, req.Currency, req.CustomerID); d != nil {
			return nil, &ConflictError{Op: "create session", OrderID: req.OrderID, Fields: d, Err: err}
		}
	}
	ctx, more := c.again(ctx)
	if !more {
		return nil, err
	}
	s, err := c.CreateSession(ctx, req, opts...)
	if s != nil && st != nil {
		s.Replayed = true
	}
	return s, err
}

// findRefund returns the refund of st made with id, marked replayed, or
// nil; a *ConflictError when its amount is not the one asked for (empty:
// the whole order).
func findRefund(op string, st *OrderStatus, id string, amount Amount, err error) (*Refund, error) {
	for i := range st.Refunds {
		if r := &st.Refunds[i]; r.UniqueRequestID == id {
			if amount != "" && !sameAmount(amount, r.Amount) {
				return nil, &ConflictError{Op: op, OrderID: st.OrderID, UniqueRequestID: id, Fields: []string{keyAmount}, Err: err}
			}
			r.Replayed = true
			return r, nil
		}
	}
	return nil, nil
}

// replayRefund settles a Refund that failed with err (see ConflictError):
// the order's status, in whose Refunds the refund is marked replayed.
func (c *Client) replayRefund(ctx context.Context, orderID string, req *RefundRequest, opts []RequestOption, err error) (*OrderStatus, error) {
	if !c.unknownOutcome(err) {
		return nil, err
	}
	if st, _ := c.lookup(ctx, orderID, opts); st != nil {
		switch r, cerr := findRefund("refund", st, req.UniqueRequestID, req.Amount, err); {
		case cerr != nil:
			return nil, cerr
		case r != nil:
			return st, nil
		}
		if ctx, ok := c.again(ctx); ok {
			return c.Refund(ctx, orderID, req, opts...)
		}
	}
	return nil, err
}

// replayTxnRefund settles a RefundTransaction that failed with err (see
// ConflictError). A refund by txn_id alone is looked up in the order the
// txn_id names ("<merchant>-<order>-<n>").
func (c *Client) replayTxnRefund(ctx context.Context, req *TransactionRefundRequest, opts []RequestOption, err error) (*Refund, error) {
	if !c.unknownOutcome(err) {
		return nil, err
	}
	orderID := req.OrderID
	if orderID == "" {
		if rest, ok := strings.CutPrefix(req.TxnID, c.merchantID+"-"); ok {
			if i := strings.LastIndexByte(rest, '-'); i > 0 {
				orderID = rest[:i]
			}
		}
	}
	if st, _ := c.lookup(ctx, orderID, opts); orderID != "" && st != nil {
		if r, cerr := findRefund("refund transaction", st, req.UniqueRequestID, req.Amount, err); r != nil || cerr != nil {
			return r, cerr
		}
		if ctx, ok := c.again(ctx); ok {
			return c.RefundTransaction(ctx, req, opts...)
		}
	}
	return nil, err
}
