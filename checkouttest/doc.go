// Package checkouttest is an in-process fake of the payment-orchestration
// service, in the spirit of net/http/httptest: NewServer starts it on a
// loopback address and returns a *Server whose URL a checkout.Client can use
// with no credentials and no network.
//
// The fake checks the wire format as strictly as the service does, not the
// Go types of any client:
//
//   - every call needs "Authorization: Basic base64(<api key>:)" (the form
//     without the colon is accepted too) and the right x-merchantid, else
//     401 with the service's access_denied body;
//   - POST /session must be application/json with the required fields of
//     its action, case-exact payment_filter keys and values (with the plural
//     card keys the service accepts), an exact sdk_udf value and flat dotted
//     keys ("metadata.webhook_url");
//   - POST /orders must be form-encoded, carry a YYYY-MM-DD "version"
//     header, and well-formed payment_collection_link_details when links
//     are asked for;
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
// the event is enabled in the webhook configuration. Webhooks go to the
// order's metadata.webhook_url, else to the configured URL, always with the
// configured Basic credentials and custom headers, and are re-sent after
// every non-200 reply until a 200 or MaxAttempts. The webhook configuration
// can be set or changed after the fake starts (SetWebhook), for a receiver
// that needs the fake's URL first. ReturnURL gives the signed redirect to an
// order's return_url, for testing a return handler that calls
// checkout.VerifyReturn. Deliveries, recorded requests (Authorization
// redacted) and order state can be inspected; InjectFault makes the next
// requests to a path fail with a status, a delay or a dropped connection.
//
// In a test:
//
//	s := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
//	t.Cleanup(s.Close)
//	receiver := httptest.NewServer(verifier.Handler(onEvent)) // may need s.URL first
//	t.Cleanup(receiver.Close)
//	_ = s.SetWebhook(checkouttest.WebhookConfig{URL: receiver.URL, Username: "shop", Password: "hook-secret"})
//	c, _ := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(s.URL))
//	… c.CreateSession(ctx, req) …
//	s.Pay(req.OrderID)                  // ORDER_SUCCEEDED reaches the receiver
//	s.WaitDeliveries(ctx)               // every delivery notified or given up
//
// Programs not written in Go drive the same fake through the checkout
// command (checkout fake, checkout trigger) and the control endpoints under
// ControlPrefix, which exist only in the fake.
//
// A Server is safe for concurrent use by many goroutines and holds all its
// state itself; tests may run in parallel, each with its own Server. Close
// stops webhook deliveries (none is sent after Close returns) and shuts the
// listener down.
package checkouttest
