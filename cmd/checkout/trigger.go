package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/payorch/checkout-go/checkouttest"
)

const triggerHelp = `Usage: checkout trigger pay|fail|refund --order ID [flags]

Moves an order of a running "checkout fake", as the customer or the bank
would, and waits until the webhook it sends is delivered (or given up):

  pay      the customer pays: CHARGED, webhook ORDER_SUCCEEDED
  fail     the payment fails: AUTHORIZATION_FAILED, webhook ORDER_FAILED
  refund   the order's pending refunds (made with POST /orders/{id}/refunds)
           complete: webhook ORDER_REFUNDED; --refund-id picks one

It prints the order's new status, each webhook delivery, and the signed
redirect to the order's return_url when the fake has a response key. The exit
status is 1 when the fake refuses (unknown order, a move the order cannot
make) or a webhook was sent and not acknowledged with a 200.

Flags:
`

func triggerCommand() command {
	return command{name: "trigger", help: triggerHelp, setup: func(fs *flag.FlagSet, env func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		ef := newEnvFlags(fs, env)
		fake := ef.String("fake", "CHECKOUT_FAKE_URL", "http://127.0.0.1:8080", "base `URL` of the running fake")
		order := fs.String("order", "", "the merchant's order id (required)")
		refundID := fs.String("refund-id", "", "refund: the unique_request_id of the refund to complete (default: every pending one)")
		asJSON := fs.Bool("json", false, "print the fake's JSON reply instead of text")
		return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			if err := ef.apply(); err != nil {
				return usageError(fs, stderr, "%v", err)
			}
			if len(args) != 1 {
				return usageError(fs, stderr, "name one action: pay, fail or refund")
			}
			action := args[0]
			switch action {
			case "pay", "fail", "refund":
			default:
				return usageError(fs, stderr, "unknown action %q: use pay, fail or refund", action)
			}
			if *order == "" {
				return usageError(fs, stderr, "--order is required")
			}
			if *refundID != "" && action != "refund" {
				return usageError(fs, stderr, "--refund-id goes with refund only")
			}
			base, err := url.Parse(strings.TrimRight(*fake, "/"))
			if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
				return usageError(fs, stderr, "--fake %s is not an http(s) URL", redactURL(*fake))
			}
			u := base.String() + checkouttest.ControlPrefix + "orders/" + url.PathEscape(*order) + "/" + action
			if *refundID != "" {
				u += "?unique_request_id=" + url.QueryEscape(*refundID)
			}
			return trigger(ctx, u, *asJSON, stdout, stderr)
		}
	}}
}

// trigger posts to the control endpoint u and reports the reply.
func trigger(ctx context.Context, u string, asJSON bool, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(ctx, checkouttest.ControlWait+10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		fmt.Fprintf(stderr, "checkout trigger: %v\n", err)
		return exitFail
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "checkout trigger: is the fake running? %v\n", err)
		return exitFail
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		fmt.Fprintf(stderr, "checkout trigger: reading the reply: %v\n", err)
		return exitFail
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error == "" {
			e.Error = fmt.Sprintf("HTTP %d from %s (is it a checkout fake?)", resp.StatusCode, redactURL(u))
		}
		fmt.Fprintf(stderr, "checkout trigger: %s\n", e.Error)
		return exitFail
	}
	var res checkouttest.ControlResult
	if err := json.Unmarshal(body, &res); err != nil {
		fmt.Fprintf(stderr, "checkout trigger: the reply is not a control result: %v\n", err)
		return exitFail
	}
	for i := range res.Deliveries {
		res.Deliveries[i].URL = redactURL(res.Deliveries[i].URL)
	}
	res.ReturnURL = redactURL(res.ReturnURL)
	if asJSON {
		// Written again from res, whose URLs no longer hold a password.
		b, err := json.Marshal(&res)
		if err != nil {
			fmt.Fprintf(stderr, "checkout trigger: %v\n", err)
			return exitFail
		}
		_, _ = stdout.Write(append(b, '\n'))
	} else {
		fmt.Fprintf(stdout, "order %s: %s (status_id %d)\n", res.OrderID, res.Status, res.StatusID)
	}
	code := exitOK
	for _, d := range res.Deliveries {
		switch {
		case d.URL == "":
			if !asJSON {
				fmt.Fprintf(stdout, "webhook %s: not sent, no webhook URL (give the fake --webhook-url, or the order metadata.webhook_url)\n", d.EventName)
			}
		case d.Notified:
			if !asJSON {
				fmt.Fprintf(stdout, "webhook %s %s: delivered to %s (200 after %d attempt%s)\n", d.EventName, d.EventID, d.URL, d.Attempts, plural(d.Attempts))
			}
		default:
			code = exitFail
			if d.Error == "" {
				d.Error = "still being re-sent when the wait ended"
			}
			fmt.Fprintf(stderr, "checkout trigger: webhook %s %s to %s not acknowledged: last status %d after %d attempt%s; %s\n",
				d.EventName, d.EventID, d.URL, d.LastStatus, d.Attempts, plural(d.Attempts), d.Error)
		}
	}
	if res.ReturnURL != "" && !asJSON {
		fmt.Fprintf(stdout, "return_url redirect: %s\n", res.ReturnURL)
	}
	return code
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
