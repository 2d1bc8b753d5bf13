// Package webhook receives the service's webhooks safely: it checks where a
// request comes from, its Basic credentials and custom headers, bounds and
// decodes the body (plain JSON or the encrypted {"JWT": "..."} envelope),
// and hands each event to the merchant's function exactly once.
//
// A receiver is built from a Config:
//
//	v, err := webhook.NewVerifier(webhook.Config{
//		Username: user, Password: pass,          // the dashboard's webhook credentials
//		Sources:  webhook.ProductionSources,   // the service's fixed addresses
//	})
//	if err != nil {
//		return err
//	}
//	http.Handle("/webhooks", v.Handler(func(ctx context.Context, ev *webhook.Event) error {
//		if ev.Name != webhook.OrderSucceeded {
//			return nil // acknowledge the events you do not act on
//		}
//		order, err := ev.Order() // a *checkout.OrderStatus, as GetOrder returns
//		if err != nil {
//			return err
//		}
//		if err := order.CheckPaid(shop.Expected(order.OrderID)); err != nil {
//			log.Printf("order %s: %v", order.OrderID, err) // not CHARGED, or another amount: do not ship
//			return nil // a re-send would not mend it: acknowledge, and alert a person
//		}
//		return shop.MarkPaid(ctx, order) // an error replies 500: the service re-sends
//	}))
//
// Handler answers so that the service, which re-sends every notification
// not answered 200, re-sends exactly what was not processed:
//
//	200 fn succeeded, or the event was processed before (fn not called)
//	403 source not allowed (ErrForbiddenSource)
//	405 not a POST (ErrMethodNotAllowed), with Allow: POST
//	401 bad credentials or custom headers (ErrBadCredentials, ErrHeaderMismatch)
//	413 body too large (ErrBodyTooLarge); 400 not an event (ErrMalformedBody)
//	409 a duplicate whose first delivery still runs after Config.DuplicateWait
//	    (ErrInFlight), with Retry-After: 5
//	500 fn failed or panicked, the claim store failed, or the configuration
//	    is wrong (no Decrypter, ErrNotEncrypted, a token that does not open):
//	    logged, and the service keeps the event
//
// The body is read within Config.ReadTimeout and Config.MaxBodyBytes,
// whatever the server's own timeouts. Config.Observer hears each
// delivery's [Outcome] and duration, for metrics and tracing.
//
// Exactly once. fn runs once per event (Event.DedupKey) across concurrent
// deliveries. A duplicate arriving while the first delivery runs waits for
// it, at most Config.DuplicateWait and while its own request lives: if the
// first succeeds it answers 200 without calling fn; if the first fails, a
// waiting duplicate claims the event and runs fn itself; if the wait ends
// first it answers 409. A duplicate never gets 200 before the event is
// processed.
//
// Events are claimed in Config.Claims, a [claim.Claimer] (the contract the
// reconcile package shares; package claim states every rule): before fn
// runs, the delivery claims the event's key under a random token for
// Config.DedupLease, renewed while fn runs, so a slow fn is never run a
// second time beside itself (fn's context ends if the claim is lost all
// the same). After fn succeeds the key is marked done for Config.DedupTTL,
// tried again until the store records it (for at most a lease); if that
// still fails the answer is 200 (the work is done) and the failure logged.
// After fn fails or panics the claim is released, so the re-send is
// processed. The default store is one process's memory; share
// claim/redisclaim across replicas. A replica killed after fn's effect and
// before the mark leaves the event to be processed again: make fn
// idempotent, or commit its effect with the mark (see package claim).
//
// Encrypted webhooks ({"JWT": "..."}) are opened by Config.Decrypter
// ([JWEDecrypter] for the service's RSA keys), which also checks the
// signature inside. Once a Decrypter is configured, plain JSON bodies are
// refused ([ErrNotEncrypted]): they would skip both. During the switch-over,
// while the service may still send plain JSON, set Config.AcceptPlain, and
// clear it once every delivery arrives encrypted.
//
// The content of an event is typed by kind: [Event.Order] (the same
// [checkout.OrderStatus] that [checkout.Client.GetOrder] returns),
// [Event.Transaction], [Event.Mandate], [Event.Refund] and
// [Event.Notification]; Kind, OrderID and Status are read by the same
// decoding. Unknown event names are normal and reach the function like any
// other.
//
// Everything fails closed: NewVerifier refuses a Config without credentials
// or without an address allow-list (unless AllowAnySource), and copies
// every list and map it is given. ProductionSources and SandboxSources are
// variables so they can be written straight into a Config: treat them as
// read-only.
package webhook
