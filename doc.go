// Package checkout is a typed client for a payment-orchestration service's
// hosted checkout. [Client.CreateSession] opens a checkout session for the
// payment page, [Client.CreateOrder] creates an order (optionally with UPI
// QR and intent collection links), [Client.GetOrder] reads an order's status
// and [Client.Refund] refunds it; [Client.Do] calls an endpoint the SDK does
// not model through the same path.
//
// A [Client] is safe for concurrent use and should be created once and
// shared: it keeps a pool of connections to the service. Every call checks
// its request before anything is sent (a [*ValidationError] lists every
// problem), and reports a refusal of the service as an [*APIError] and a
// failed exchange as a [*TransportError].
//
// # Retries
//
// Every call goes through one loop, and one rule decides what a failure
// means. The client retries only what cannot have taken effect, or what
// the service asked to be retried: a connection that failed before
// anything was written (dial or TLS handshake; a certificate the client
// does not trust is not retried), and 429 or 503, waiting as Retry-After
// says but never longer than [RetryPolicy] MaxWait. Ambiguous failures (a
// timeout or a dropped connection after the request was sent, 500, 502,
// 504) are retried only for reads ([Client.GetOrder], [Client.GetCustomer],
// a GET or HEAD through [Client.Do]), as is any other 5xx to a read: the
// service documents no idempotency for its writes, so a blind retry could
// create or refund twice. [Retryable] gives the same answer for a failed
// read. Waits use
// full jitter and end at once when the context is done; a wait that could
// outlast the context's deadline is not started, and the call returns the
// last reply or error instead (for a 429 the [*APIError] with its
// RetryAfter, so the caller can schedule the retry itself).
//
// A reply to a call about an order must name that order: one about
// another order, or naming none, is an error (a misrouting proxy or cache
// must never make [OrderStatus.CheckPaid] approve the wrong order).
//
// # After a failed write
//
// When a write fails, the error says what happened:
//
//   - [*ValidationError]: nothing was sent; fix the request.
//   - [*APIError] with a 4xx status: the service refused the request; 429
//     asks to try later (see [APIError.RetryAfter]).
//   - [*APIError] with 503: the service did not act; try later.
//   - [*TransportError] with MaybeDelivered false: nothing reached the
//     service; sending again is safe.
//   - [*JOSEError] matching [ErrKeyOperation] while signing: the merchant's
//     signer failed, panicked or signed wrong, and nothing was sent.
//
// When the outcome is unknown (a timeout or dropped connection after
// sending, a 500, 502 or 504, a 2xx reply that could not be read, opened
// or trusted, or the service answering that the order or refund already
// exists), [Client.CreateOrder], [Client.CreateSession], [Client.Refund]
// and [Client.RefundTransaction] settle it before writing again: they read
// the order once (a GetOrder, retried as reads are) and return what they
// find marked Replayed, a [*ConflictError] when it differs, or send the
// write again when nothing was made. One write is sent at most
// MaxRetries+1 times in all, retries of a 429 or 503 included, and each
// unknown outcome costs one settle read. With retries off (a zero
// [RetryPolicy]) the error is returned as it is: ask [Client.GetOrder]
// before sending again. The other writes ([Client.UpdateOrder], the
// customer calls, a write through [Client.Do]) are never settled: their
// [*TransportError] says MaybeDelivered; read the order
// ([Client.GetCustomer] for a customer) before sending again.
//
// # Encrypted calls (JWE+JWS)
//
// With [WithJWE] or [WithJWEKeys], [Client.CreateSession], [Client.GetOrder]
// and [Client.Refund] call /v4/session, /v4/order-status and
// /v4/orders/{order_id}/refunds. The JSON body is signed with the merchant
// key (JWS RS256, protected header alg and kid), written as
// {"header","payload","signature"}, encrypted to the service key (JWE
// RSA-OAEP-256 with A256GCM, kid) and sent as
// {"header","encryptedKey","iv","encryptedPayload","tag"}, every part
// base64url. A 2xx reply must come back in that envelope or as
// {"JWT": "<compact JWE>"}; it is decrypted with the merchant key
// (RSA-OAEP-256 or RSA-OAEP), its "kid" must equal the key id, and its
// signature must be RS256 by the service key, before it is decoded into the
// same types as in Basic mode. Anything else is a [*JOSEError]
// ([ErrEnvelope], [ErrDecrypt], [ErrSignature]) and nothing of it is
// decoded. Error replies are plain JSON (one that comes sealed is opened
// when it opens). The /v4 calls carry no Basic Authorization: the signature
// authenticates them, and the API key would be a second, replayable secret.
// Calls with no /v4 form, such as [Client.CreateOrder], keep using the key.
//
// Payment filters, EMI options and the product summary of the payment page
// are built with the packages [github.com/payorch/checkout-go/paymentfilter],
// [github.com/payorch/checkout-go/emi] and
// [github.com/payorch/checkout-go/productsummary]; package
// [github.com/payorch/checkout-go/webhook] verifies the service's webhooks,
// and [github.com/payorch/checkout-go/checkouttest] is an in-process fake of
// the service for tests.
package checkout
