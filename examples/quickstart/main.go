// Command quickstart walks through the whole integration in a few seconds:
// it creates a checkout session with a payment filter, an EMI setting and a
// product summary, prints the sdk_payload an app would receive, creates an
// order with UPI QR and intent links, receives the payment's webhook with a
// verifying handler, and reads the order status.
//
// With no environment set it runs against checkouttest, the SDK's
// in-process fake of the service:
//
//	go run ./examples/quickstart
//
// With CHECKOUT_BASE_URL, CHECKOUT_MERCHANT_ID, CHECKOUT_API_KEY and
// CHECKOUT_PAYMENT_PAGE_CLIENT_ID (the session's payment_page_client_id)
// set it talks to that environment instead and skips the steps only the
// fake can play (paying the order and delivering its webhook to this
// machine). Against the fake, CHECKOUT_PAYMENT_PAGE_CLIENT_ID is optional
// ("quickstart" when unset).
//
// It exits 0 on success and 1 with a message on any failure, and gives up
// after 30 seconds.
package main

import (
	"context"
	"fmt"
	"os"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart: FAILED:", err)
		cancel()
		os.Exit(1)
	}
}
