package checkouttest

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"

	checkout "github.com/payorch/checkout-go"
)

// ErrNoReturnURL: the order has no return_url, or the fake has no
// Config.ResponseKey to sign the redirect with.
var ErrNoReturnURL = errors.New("checkouttest: no signed return URL")

// ReturnURL returns where the service sends the customer's browser when it
// leaves the payment page of the order: the order's return_url with the
// order's order_id, status and status_id now, signed with
// Config.ResponseKey as the service signs it (signature escaped twice,
// signature_algorithm HMAC-SHA256). Parameters already in return_url are
// kept and signed too. A merchant's return handler, which checks the
// redirect with checkout.VerifyReturn, can be tested by loading this URL.
//
// It fails with ErrUnknownOrder, and with ErrNoReturnURL when the order was
// made without a return_url or the fake has no response key.
func (s *Server) ReturnURL(orderID string) (string, error) {
	if !s.started() {
		return "", ErrNotStarted
	}
	s.mu.Lock()
	o := s.orders[orderID]
	var ret, status string
	if o != nil {
		ret, status = o.returnURL, o.status
	}
	s.mu.Unlock()
	switch {
	case o == nil:
		return "", fmt.Errorf("%w: %q", ErrUnknownOrder, orderID)
	case ret == "":
		return "", fmt.Errorf("%w: order %q has no return_url", ErrNoReturnURL, orderID)
	case s.responseKey == "":
		return "", fmt.Errorf("%w: Config.ResponseKey is empty", ErrNoReturnURL)
	}
	u, err := url.Parse(ret)
	if err != nil {
		return "", fmt.Errorf("%w: order %q: return_url: %v", ErrNoReturnURL, orderID, err)
	}
	params := u.Query()
	params.Set("order_id", orderID)
	params.Set("status", status)
	params.Set("status_id", strconv.Itoa(statusID(status)))
	u.RawQuery = checkout.SignReturn(params, s.responseKey)
	return u.String(), nil
}
