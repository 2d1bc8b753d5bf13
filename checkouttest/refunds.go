package checkouttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// handleRefund serves POST /orders/{order_id}/refunds (readRefund); the
// reply is the order status with its refunds.
func (s *Server) handleRefund(w http.ResponseWriter, r *http.Request, body []byte, orderID string) {
	req, ok := versionedFormOK(w, r, body, readRefund)
	if !ok {
		return
	}
	s.refundOrder(w, orderID, req)
}

// handleOrderRefund serves the older POST /order/refund, whose form names
// the order by order_id: the answer of POST /orders/{order_id}/refunds.
func (s *Server) handleOrderRefund(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	form, _ := url.ParseQuery(string(body)) // formOK refuses a malformed one
	if form.Get("order_id") == "" {
		p.miss("order_id")
	}
	optionalVersion(p, r)
	if req, ok := formOK(w, p, r, body, readRefund); ok {
		s.refundOrder(w, form.Get("order_id"), req)
	}
}

// refundOrder refunds the order as req asks, once it was read, and
// answers the order status (the Basic and the JWE+JWS call).
func (s *Server) refundOrder(w http.ResponseWriter, orderID string, req *refundIn) {
	s.answerOrder(w, orderID, func(o *order) func(http.ResponseWriter) {
		_, refuse := s.addRefundLocked(o, req.uniqueRequestID, req.amount, "STANDARD")
		return refuse
	})
}

// handleTxnRefund serves POST /refunds (readTxnRefund). The refund is of
// the order whose latest transaction is txn_id, else of order_id; the
// reply is the refund alone, as the service's published replies show it.
func (s *Server) handleTxnRefund(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	req, ok := versionedFormOK(w, r, body, readTxnRefund)
	if !ok {
		return
	}
	s.mu.Lock()
	var o *order
	if req.txnID != "" {
		for _, cand := range s.orders {
			if cand.txn != nil && cand.txn.id == req.txnID && (req.orderID == "" || req.orderID == cand.orderID) {
				o = cand
				break
			}
		}
	} else {
		o = s.orders[req.orderID]
	}
	switch {
	case o == nil && req.txnID != "":
		s.mu.Unlock()
		writeNoTxn(w)
		return
	case o == nil:
		s.mu.Unlock()
		writeNotFound(w, req.orderID)
		return
	}
	kind := req.refundType
	if kind == "" {
		kind = "STANDARD"
	}
	rf, refuse := s.addRefundLocked(o, req.uniqueRequestID, req.amount, kind)
	if refuse != nil {
		s.mu.Unlock()
		refuse(w)
		return
	}
	v := txnRefundView{
		UniqueRequestID: rf.uniqueRequestID, TxnID: rf.txnID, OrderID: o.orderID, Status: rf.status,
		RefundType: rf.refundType, RefundSource: o.txn.gateway, Gateway: o.txn.gateway, InitiatedBy: "API",
		Created: s.timestamp(rf.created), Amount: amountNumber(rf.amount),
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// txnRefundView is the reply of POST /refunds
// (conformance/refunds/refund_by_txn_id_response.json).
type txnRefundView struct {
	UniqueRequestID string      `json:"unique_request_id"`
	TxnID           string      `json:"txn_id"`
	OrderID         string      `json:"order_id"`
	Status          string      `json:"status"`
	SentToGateway   bool        `json:"sent_to_gateway"`
	RefundType      string      `json:"refund_type"`
	RefundSource    string      `json:"refund_source"`
	Gateway         string      `json:"gateway"`
	InitiatedBy     string      `json:"initiated_by"`
	Created         string      `json:"created"`
	Amount          json.Number `json:"amount"`
}

// addRefundLocked records a refund of o as the service makes one: the
// order must be charged, the unique request id new to the order, and the
// amount in minor units (all that is left when 0) no more than is left. On
// refusal it returns the reply to write instead. Called with s.mu held.
func (s *Server) addRefundLocked(o *order, id string, amount int64, kind string) (*refund, func(http.ResponseWriter)) {
	if o.status != StatusCharged || o.txn == nil {
		return nil, writeNoTxn
	}
	p := &problems{}
	const idKey, amountKey = "unique_request_id", "amount"
	for _, rf := range o.refunds {
		if rf.uniqueRequestID == id {
			p.bad(idKey, fmt.Sprintf("a refund with %s %q already exists", idKey, id))
			return nil, p.write
		}
	}
	left := o.amount - o.refunded()
	minor := left
	if amount != 0 {
		minor = amount
	}
	switch {
	case left <= 0:
		p.bad(amountKey, "the order has nothing left to refund")
	case minor > left:
		p.bad(amountKey, fmt.Sprintf("refund of %s exceeds the refundable amount %s", amountText(minor), amountText(left)))
	}
	if !p.empty() {
		return nil, p.write
	}
	rf := &refund{uniqueRequestID: id, amount: minor, status: RefundPending, created: s.now(), txnID: o.txn.id, refundType: kind}
	o.refunds = append(o.refunds, rf)
	return rf, nil
}

// writeNoTxn answers a refund of an order without a successful payment as
// the service does (conformance/errors/order_fulfilment_error_400_no_txn.json).
func writeNoTxn(w http.ResponseWriter) {
	writeError(w, http.StatusBadRequest, errBody{
		Status: "ERROR", ErrorCode: "No txn Found", ErrorMessage: "No successfull txn found for given order_id ",
		ErrorInfo: &errorInfo{DeveloperMessage: "No successfull txn found for given order_id",
			UserMessage: "Cannot process your request as no transaction found for this order.", Code: "RESOURCE_NOT_FOUND"},
	})
}
