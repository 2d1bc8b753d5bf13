// Package webhook receives the service's webhooks safely: it checks where a
// request comes from, its Basic credentials and custom headers, bounds and
// decodes the body (plain JSON or the encrypted {"JWT": "..."} envelope),
// and hands each event to the merchant's
// function exactly once.
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
// Encrypted webhooks ({"JWT": "..."}) are opened by Config.Decrypter
// ([JWEDecrypter] for the service's RSA keys), which also checks the
// signature inside. Once a Decrypter is configured, plain JSON bodies are
// refused ([ErrNotEncrypted]): they would skip both. During the switch-over,
// while the service may still send plain JSON, set Config.AcceptPlain, and
// clear it once every delivery arrives encrypted.
//
// The content of an event is typed by kind: [Event.Order] (the same
// [checkout.OrderStatus] that [checkout.Client.GetOrder] returns),
// [Event.Transaction], [Event.Mandate] and [Event.Refund]. Unknown event
// names are normal and reach the function like any other.
//
// Everything fails closed. NewVerifier refuses a Config without credentials or
// without an address allow-list (unless AllowAnySource says so explicitly);
// Verify checks, in order, the source address, the method, the credentials,
// the custom headers, the body size and the body, and returns a sentinel
// error for each failure; Handler turns those into status codes the service
// understands. The service re-sends every notification that does not get a
// 200 reply, so a 500 is the safe answer
// whenever the merchant's side cannot take the event right now: nothing is
// lost, the event comes again.
//
// ProductionSources and SandboxSources are package variables, so that they
// can be written straight into a Config; treat them as
// read-only. NewVerifier copies every list and map it is given, so no later
// change (to them or to a Config) reaches a Verifier; every Verifier is
// independent and safe for concurrent use.
package webhook
