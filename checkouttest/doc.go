// Package checkouttest is an in-process fake of the payment-orchestration
// service, in the spirit of net/http/httptest: NewServer starts it on a
// loopback address and returns a *Server whose URL a checkout.Client can use
// with no credentials and no network.
//
// The fake judges the wire, not the client: it reads each request as the
// service does, key by key and case-sensitively, with its own small model
// of a session, an order, a refund and a customer written from the
// service's interface and published bodies, never with package checkout's
// request types. It refuses a missing required key, a value of the wrong
// JSON type, a value outside its set ("PaymentPage", an unknown upiType), a
// known key or value in another case ("allowdefaultoptions") and the
// rules the interface states (enable true on CARD and UPI carrying their
// filters, a BIN or tenure range <from>::<to>, a divider's thickness…);
// keys it does not read are ignored, as the service ignores them. So every
// body the service publishes passes (an amount of "1.0" or 100, the enach
// action with its extra keys, a guest paymentManagement, WALLETS), and a
// client that encodes a request wrongly is refused as the service would
// refuse it, whoever built the bytes. What the service does beyond
// validation, the fake does too:
//
//   - every call needs "Authorization: Basic base64(<api key>:)" (the form
//     without the colon is accepted too) and the right x-merchantid, else
//     401 with the service's access_denied body;
//   - POST /session (application/json) answers an sdk_payload and, for a
//     payment, makes the order; the same order_id with another amount is
//     refused;
//   - POST /orders (a form with a YYYY-MM-DD "version" header) makes an
//     order, with QR and intent collection links when asked;
//   - GET /orders/{order_id} answers the order status; POST
//     /orders/{order_id} changes an unpaid order (a new amount, udf
//     fields); an unknown order is HTTP 400 with status NOT_FOUND,
//     status_id 40 and the order_id, as the service answers;
//   - POST /orders/{order_id}/refunds refunds a charged order (the whole
//     rest when the amount is left out), never more than was paid; POST
//     /refunds refunds by txn_id, or by order_id with a refund_type such as
//     INSTANT, and answers the refund alone;
//   - POST /customers, GET /customers/{id} and POST /customers/{id} keep
//     customers, found by the service's id or the merchant's
//     object_reference_id;
//   - /v4/session, /v4/order-status and /v4/orders/{order_id}/refunds serve
//     the JWE+JWS mode: bodies signed and encrypted with the fake's own key
//     pair, which Server.JWE returns for checkout.WithJWE;
//   - the older paths the official PHP and Python SDKs call answer as the
//     documented ones, on the same orders: POST /order/create (which also
//     updates an existing order_id), GET /order/status?order_id=… and POST
//     /order/refund (order_id in the form).
//
// Bad requests get HTTP 400 with the service's error bodies: "Mandatory
// fields are missing" when a required key is absent, else INVALID_REQUEST;
// error_info.fields names every offending path, as the client's
// checkout.ValidationError does, for example
// "payment_filter.options[0].cardFilters[0].cardBins[1]".
//
// Test helpers play the parts a test cannot reach through the API: Pay,
// PayWith and Fail finish an order's transaction, RefundCompleted and
// RefundFailed finish a refund, and each of them sends the matching webhook
// (ORDER_SUCCEEDED, ORDER_FAILED, ORDER_REFUNDED, ORDER_REFUND_FAILED) when
// the event is enabled in the webhook configuration; PayWith with
// Payment.Amount settles another amount, for an underpaid or overpaid order. Webhooks go to the
// order's metadata.webhook_url, else to the configured URL, always with the
// configured Basic credentials and custom headers, and are re-sent after
// every non-200 reply until a 200 or MaxAttempts. The webhook configuration
// can be set or changed after the fake starts (SetWebhook), for a receiver
// that needs the fake's URL first. ReturnURL gives the signed redirect to an
// order's return_url, for testing a return handler that calls
// checkout.VerifyReturn. Deliveries, recorded requests (Authorization
// redacted) and order state can be inspected; InjectFault makes the next
// requests to a path fail with a status, a delay or a dropped connection,
// or (Fault.AfterProcessing) be served and then lose their reply, to test
// that a write whose outcome is unknown is settled, not repeated.
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
//	// or, in the JWE+JWS mode:
//	k := s.JWE()
//	c, _ = checkout.NewClient("shop", "test_key", checkout.WithBaseURL(s.URL),
//		checkout.WithJWE(k.KeyID, k.MerchantKey, k.ServiceKey))
//	s.Pay(req.OrderID)                  // CHARGED; ORDER_SUCCEEDED is on its way to the receiver
//	s.WaitDeliveries(ctx)               // every delivery notified or given up
//
// The payment page: payment_links.web (and mobile, iframe) of every order
// opens a page the fake serves, without script and without assets of its
// own from another host: the order and its amount, the session's product
// summary, and the payment options its payment_filter and sdk_udf leave
// visible ([PreviewPage] says which, and why), so a merchant sees what a
// filter does before going live. The tester picks an option and an
// outcome: success and failure move the order as Pay and Fail do, pending
// leaves it PENDING_VBV; the webhooks are sent, and the browser is
// redirected to the order's return_url, signed for checkout.VerifyReturn
// (the result is shown on the page when there is no return_url).
//
// What the page shows ([PreviewPage] computes it) follows these rules:
//
//   - allowDefaultOptions decides what no entry decides: with true it stays
//     visible, with false only what enable: true entries select is shown;
//   - an option block (only the first of each paymentMethodType counts)
//     with enable false hides its type, or the methods it names in
//     paymentMethods; with enable true it shows them;
//   - card filters (by brand, type, sub type, bank and BIN range; the
//     lists of one filter must all match) and UPI filters (INTENT apps,
//     COLLECT handles) hide or show what they match inside an enabled
//     CARD or UPI block; paymentMethods has no effect on CARD and UPI;
//   - sdk_udf hideEMI hides EMI, showEMI shows it, ShowEMIWithoutCards
//     shows it and hides the CARD method; showOnlyEmi hides everything but
//     EMI;
//   - emiOptions enable or disable standardEmi, lowCostEmi and noCostEmi,
//     their credit, debit and cardless groups, and inside a group the
//     plans a filter matches by method, issuer and tenure range.
//
// A test drives the page without a browser by posting its form
// (application/x-www-form-urlencoded) to the page's URL: "option" is the
// PageOption.Value of a visible option, such as "WALLET:PAYTM", "UPI:GPAY"
// (an app), "UPI:@ybl" (a collect handle), "NB:NB_HDFC",
// "CARD:CREDIT:VISA:ICICI:PLATINUM" or "EMI:noCostEmi:credit:SVC_ICICI:9"
// (PreviewPage lists them); "outcome" is "success", "failure" or
// "pending"; a card option may add "card_number", checked against the
// filter's BIN ranges. For example:
//
//	curl -d option=WALLET:PAYTM -d outcome=success "$PAYMENT_LINK_WEB"
//
// A post another site's page makes (its Origin, or Sec-Fetch-Site
// cross-site) is refused.
//
// Programs not written in Go drive the same fake through the checkout
// command (checkout fake, checkout trigger) and the control endpoints under
// ControlPrefix, which exist only in the fake; checkout fake
// --jwe-keys-dir writes the JWE+JWS keys to files for them. The control
// endpoints need no API key, are not recorded by Requests and are not
// subject to InjectFault:
//
//	GET  /__checkouttest/health                        200 {"status":"ok"}
//	POST /__checkouttest/orders/{order_id}/pay         Pay (?amount=90.00: Payment.Amount)
//	POST /__checkouttest/orders/{order_id}/fail        Fail
//	POST /__checkouttest/orders/{order_id}/refund      RefundCompleted (every pending refund,
//	                                                   or ?unique_request_id=…)
//	POST /__checkouttest/orders/{order_id}/refund-fail RefundFailed (likewise)
//	POST /__checkouttest/orders/{order_id}/resend      Resend of the order's last event
//	POST /__checkouttest/faults?path=/orders&status=502&after=1
//	                                                   InjectFault (also method, times,
//	                                                   drop, delay, retry_after)
//
// The four moves take ?duplicates=N (1 to MaxControlRepeat): each event
// the move sends is delivered N more times, as WebhookConfig.Duplicates
// does, to try a receiver's duplicate handling; resend takes ?times=N.
// A POST must carry the header ControlHeader (any value; checkout trigger
// sends it), which a web page cannot send cross-site without a preflight
// the fake never grants, and a request a browser marks cross-site (an
// Origin not the fake's own, Sec-Fetch-Site cross-site or same-site) is
// refused with 403. A POST waits (at most ControlWait) until the webhooks
// it sent are delivered or given up and replies 200 with a ControlResult
// (a FaultResult for faults); an unknown order is 404, a move the order cannot make (or a resend
// before any event) 409, anything else 400, with {"error": "..."}.
//
// What the fake protects: it serves only loopback Host names, the
// addresses it listens on and Config.Hosts, so a DNS name rebound to its
// address reaches nothing, on loopback (the default) as beyond it;
// the control endpoints need ControlHeader and refuse cross-site requests;
// nothing it prints holds a secret of its configuration; every reply
// carries FakeHeader. What it does not: its pages and control endpoints
// take no API key, and on another address (Config.Listener) anyone who
// reaches it can use them. It is test code: never expose it.
//
// A Server is safe for concurrent use by many goroutines and holds all its
// state itself; tests may run in parallel, each with its own Server. Close
// stops webhook deliveries (none is sent after Close returns) and shuts the
// listener down.
package checkouttest
