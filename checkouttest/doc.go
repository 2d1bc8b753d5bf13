// Package checkouttest is an in-process fake of the payment-orchestration
// service, in the spirit of net/http/httptest: NewServer starts it on a
// loopback address and returns a *Server whose URL a checkout.Client can use
// with no credentials and no network.
//
// The fake checks the wire format strictly, as the service's interface
// document (spec) allows, not the Go types of any client:
//
//   - every call needs "Authorization: Basic base64(<api key>:)" (the form
//     without the colon is accepted too, spec §5.1) and the right
//     x-merchantid, else 401 with the service's access_denied body;
//   - POST /session (spec §2.1, §4.1) must be application/json with the
//     required fields of its action, case-exact payment_filter keys and
//     values (spec §2.2–2.5, with the plural card keys the service accepts),
//     an exact sdk_udf value and flat dotted keys ("metadata.webhook_url");
//   - POST /orders (spec §2.7, §4.2) must be form-encoded, carry a
//     YYYY-MM-DD "version" header, and well-formed
//     payment_collection_link_details when links are asked for;
//   - GET /orders/{order_id} answers the order status, an unknown order is
//     HTTP 400 with status NOT_FOUND as the service does;
//   - POST /orders/{order_id}/refunds (form unique_request_id, amount)
//     refunds a charged order, never more than was paid.
//
// Bad requests get HTTP 400 with the service's error body whose
// error_info.fields name every offending path, for example
// "payment_filter.options[0].cardFilters[0].cardTypes[0]".
//
// Test helpers play the parts a test cannot reach through the API: Pay,
// PayWith and Fail finish an order's transaction, RefundCompleted and
// RefundFailed finish a refund, and each of them sends the matching webhook
// (ORDER_SUCCEEDED, ORDER_FAILED, ORDER_REFUNDED, ORDER_REFUND_FAILED) when
// the event is enabled in Config.Webhook.Events (spec §6.1.3). Webhooks go
// to the order's metadata.webhook_url, else to Config.Webhook.URL, always
// with the configured Basic credentials and custom headers (spec §5.5), and
// are re-sent after every non-200 reply until a 200 or
// Config.Webhook.MaxAttempts (spec §6.1.4). Deliveries, recorded requests
// (Authorization redacted) and order state can be inspected; InjectFault
// makes the next requests to a path fail with a status, a delay or a
// dropped connection.
//
// In a test:
//
//	s := checkouttest.Start(t, checkouttest.Config{MerchantID: "shop", APIKey: "test_key",
//		Webhook: checkouttest.WebhookConfig{URL: receiver.URL, Username: "shop", Password: "hook-secret"}})
//	c, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(s.URL))
//	… c.CreateSession(ctx, req) …
//	s.Pay(req.OrderID)                  // ORDER_SUCCEEDED reaches the receiver
//	s.WaitDeliveries(ctx)               // every delivery notified or given up
//
// A Server is safe for concurrent use by many goroutines and holds all its
// state itself; tests may run in parallel, each with its own Server. Close
// stops webhook deliveries (none is sent after Close returns) and shuts the
// listener down.
package checkouttest
