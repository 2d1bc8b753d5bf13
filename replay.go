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
//     Replayed set; when there is none, the refund is sent again likewise.
//
// A client without retries ([RetryPolicy] MaxRetries 0) replays nothing.
type ConflictError struct {
	// Op is the call ("create order", "create session").
	Op string
	// OrderID is the order that exists.
	OrderID string
	// Fields are the keys that differ ("amount", "currency", "customer_id").
	Fields []string
}

// Error names the order and the fields that differ.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("checkout: %s: order %q already exists with another %s", e.Op, e.OrderID, strings.Join(e.Fields, ", "))
}

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
	a, ok1 := decimal(string(amount))
	b, ok2 := decimal(string(st.Amount))
	if !ok1 || !ok2 || a.Cmp(b) != 0 {
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
		return nil, &ConflictError{Op: "create order", OrderID: req.OrderID, Fields: d}
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
			return nil, &ConflictError{Op: "create session", OrderID: req.OrderID, Fields: d}
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

// findRefund returns the refund of st made with uniqueRequestID, marked
// replayed, or nil.
func findRefund(st *OrderStatus, uniqueRequestID string) *Refund {
	for i := range st.Refunds {
		if r := &st.Refunds[i]; r.UniqueRequestID == uniqueRequestID {
			r.Replayed = true
			return r
		}
	}
	return nil
}

// replayRefund settles a Refund that failed with err (see ConflictError):
// the order's status, in whose Refunds the refund is marked replayed.
func (c *Client) replayRefund(ctx context.Context, orderID string, req *RefundRequest, opts []RequestOption, err error) (*OrderStatus, error) {
	if !c.unknownOutcome(err) {
		return nil, err
	}
	if st, _ := c.lookup(ctx, orderID, opts); st != nil {
		if findRefund(st, req.UniqueRequestID) != nil {
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
		if r := findRefund(st, req.UniqueRequestID); r != nil {
			return r, nil
		}
		if ctx, ok := c.again(ctx); ok {
			return c.RefundTransaction(ctx, req, opts...)
		}
	}
	return nil, err
}
