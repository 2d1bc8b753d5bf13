package checkouttest

import (
	"fmt"
	"math"
	"time"
)

// dropState is which webhook deliveries the fake drops on purpose.
type dropState struct {
	perMillion int64           // share of every delivery, in millionths
	seen       int64           // deliveries started since the share was set
	byShare    int64           // of those, dropped for the share
	orders     map[string]bool // every delivery of these orders
	count      int             // deliveries dropped so far, for any reason
}

// Hold starts a payment of the order that stays pending (PENDING_VBV, as a
// customer still in the bank's authentication) until Pay or Fail completes
// it, or the control endpoint's pay or fail does. No ORDER_* webhook is
// sent until then. It fails as Pay does.
func (s *Server) Hold(orderID string) error {
	return s.attempt(orderID, Payment{}, StatusPendingVBV)
}

// PayLater holds the order (see Hold) and pays it after d, as a payment
// that completes late does. The payment is made unless the order was
// completed meanwhile or the server closed.
func (s *Server) PayLater(orderID string, d time.Duration) error {
	if err := s.Hold(orderID); err != nil {
		return err
	}
	time.AfterFunc(d, func() { _ = s.Pay(orderID) })
	return nil
}

// DropWebhooks makes the fake lose share (0 to 1) of the webhook
// deliveries started from now on, as a network or a receiver that is down
// would: a dropped delivery is never sent and ends at once, Done, with Err
// "dropped on purpose". The drop is deterministic, so a test can count on
// it: of the first n deliveries started after the call, exactly
// floor(n × share) are dropped, spread evenly (0.5 drops the 2nd, 4th, 6th…;
// 0.25 every 4th; 1 all). Resends and duplicates count as deliveries. 0
// drops none again; each call starts the count afresh.
func (s *Server) DropWebhooks(share float64) error {
	if !(share >= 0 && share <= 1) {
		return fmt.Errorf("checkouttest: drop webhooks: share %v is not between 0 and 1", share)
	}
	if !s.started() {
		return ErrNotStarted
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drops.perMillion = int64(math.Round(share * 1e6))
	s.drops.seen, s.drops.byShare = 0, 0
	return nil
}

// DropWebhooksFor makes the fake lose every webhook delivery of the order
// from now on (see DropWebhooks).
func (s *Server) DropWebhooksFor(orderID string) error {
	if !s.started() {
		return ErrNotStarted
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drops.orders == nil {
		s.drops.orders = map[string]bool{}
	}
	s.drops.orders[orderID] = true
	return nil
}

// Dropped returns how many webhook deliveries were dropped on purpose.
func (s *Server) Dropped() int {
	if !s.started() {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drops.count
}

// droppedLocked reports whether d is dropped on purpose, and if so ends it.
// Called with s.mu held.
func (s *Server) droppedLocked(d *delivery) bool {
	drop := s.drops.orders[d.OrderID]
	if !drop && s.drops.perMillion > 0 {
		s.drops.seen++
		if due := s.drops.seen * s.drops.perMillion / 1e6; due > s.drops.byShare {
			s.drops.byShare++
			drop = true
		}
	}
	if !drop {
		return false
	}
	d.Done, d.Err = true, "dropped on purpose"
	s.drops.count++
	return true
}
