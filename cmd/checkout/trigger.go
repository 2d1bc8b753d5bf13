package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

const triggerHelp = `Usage: checkout trigger pay|fail|refund|resend --order ID [flags]
       checkout trigger fault --path PATTERN [--method M] (--status N | --drop) [--after] [flags]

Moves an order of a running "checkout fake", as the customer or the bank
would, and waits until the webhook it sends is delivered (or given up):

  pay      the customer pays: CHARGED, webhook ORDER_SUCCEEDED
  fail     the payment fails: AUTHORIZATION_FAILED, webhook ORDER_FAILED
  refund   the order's pending refunds (made with POST /orders/{id}/refunds)
           complete: webhook ORDER_REFUNDED; --refund-id picks one
  resend   the order's last webhook is sent again, the same event (same id),
           as the service re-sends one; --times sends it more than once

--duplicates N makes pay, fail and refund send each webhook N more times,
at once, to try your receiver's duplicate handling (it should act once).

--amount settles pay with another amount than the order's (the order then
reports it), to try an underpaid or overpaid order.

  checkout trigger pay --order ord_1 --duplicates 2
  checkout trigger pay --order ord_2 --amount 90.00
  checkout trigger resend --order ord_1

fault arms a fault for the next --times requests matching --path (a
path.Match pattern such as /orders or /orders/*) and --method: --status
answers that HTTP status (503, 429, 500…) instead of serving them, --drop
closes the connection without a reply, --delay holds them first. With
--after the request is served first (the order made, the refund recorded)
and only its reply is lost, to test that your client settles a write whose
outcome it cannot know instead of repeating it:

  checkout trigger fault --method POST --path /orders --status 502 --after

It prints the order's status, each webhook delivery, and the signed
redirect to the order's return_url when the fake has a response key. The exit
status is 1 when the fake refuses (unknown order, a move the order cannot
make, a resend before any webhook) or a webhook was sent and not
acknowledged with a 200.

Flags:
`

func triggerCommand() command {
	return command{name: "trigger", help: triggerHelp, setup: func(fs *flag.FlagSet, env func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		ef := newEnvFlags(fs, env)
		fake := ef.String("fake", "CHECKOUT_FAKE_URL", "http://127.0.0.1:8080", "base `URL` of the running fake")
		order := fs.String("order", "", "the merchant's order id (required)")
		refundID := fs.String("refund-id", "", "refund: the unique_request_id of the refund to complete (default: every pending one)")
		asJSON := fs.Bool("json", false, "print the fake's JSON reply instead of text")
		dups := fs.Int("duplicates", 0, fmt.Sprintf("pay, fail, refund: send each webhook `N` more times (at most %d)", checkouttest.MaxControlRepeat))
		amount := fs.String("amount", "", "pay: settle `AMOUNT` (like 90.00) instead of the order's amount, for an underpaid or overpaid order")
		times := fs.Int("times", 1, fmt.Sprintf("resend: send the last webhook `N` times; fault: for the next N matching requests (at most %d)", checkouttest.MaxControlRepeat))
		path := fs.String("path", "", "fault: the request `PATTERN` to match, such as /orders or /orders/* (path.Match)")
		method := fs.String("method", "", "fault: the request `METHOD` to match (default any)")
		status := fs.Int("status", 0, "fault: answer this HTTP `STATUS` (such as 503 or 502)")
		drop := fs.Bool("drop", false, "fault: close the connection without a reply")
		after := fs.Bool("after", false, "fault: serve the request first, then lose its reply (with --status or --drop)")
		delay := fs.Duration("delay", 0, "fault: hold matching requests this `long` first (such as 2s)")
		return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			if err := ef.apply(); err != nil {
				return usageError(fs, stderr, "%v", err)
			}
			if len(args) != 1 {
				return usageError(fs, stderr, "name one action: pay, fail, refund, resend or fault")
			}
			action := args[0]
			switch action {
			case "pay", "fail", "refund", "resend", "fault":
			default:
				return usageError(fs, stderr, "unknown action %q: use pay, fail, refund, resend or fault", action)
			}
			given := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
			faultFlag := ""
			for _, name := range []string{"path", "method", "status", "drop", "after", "delay"} {
				if given[name] && faultFlag == "" {
					faultFlag = name
				}
			}
			switch {
			case action == "fault" && given["order"]:
				return usageError(fs, stderr, "fault takes no --order: it matches requests by --path and --method")
			case action == "fault" && *path == "":
				return usageError(fs, stderr, "fault needs --path, such as /orders")
			case action != "fault" && faultFlag != "":
				return usageError(fs, stderr, "--%s goes with fault only", faultFlag)
			case action == "fault" && (given["amount"] || given["refund-id"] || given["duplicates"]):
				return usageError(fs, stderr, "fault takes --path, --method, --status, --drop, --after, --delay and --times")
			case action == "fault" && (*times < 1 || *times > checkouttest.MaxControlRepeat):
				return usageError(fs, stderr, "--times must be from 1 to %d", checkouttest.MaxControlRepeat)
			case action == "fault":
			case *order == "":
				return usageError(fs, stderr, "--order is required")
			case given["amount"] && action != "pay":
				return usageError(fs, stderr, "--amount goes with pay only")
			case given["amount"] && !isAmount(*amount):
				return usageError(fs, stderr, "--amount %.24q is not an amount like 90.00", *amount)
			case given["refund-id"] && action != "refund":
				return usageError(fs, stderr, "--refund-id goes with refund only")
			case given["duplicates"] && action == "resend":
				return usageError(fs, stderr, "--duplicates goes with pay, fail and refund; resend takes --times")
			case given["times"] && action != "resend":
				return usageError(fs, stderr, "--times goes with resend and fault only; pay, fail and refund take --duplicates")
			case given["duplicates"] && (*dups < 1 || *dups > checkouttest.MaxControlRepeat):
				return usageError(fs, stderr, "--duplicates must be from 1 to %d", checkouttest.MaxControlRepeat)
			case *times < 1 || *times > checkouttest.MaxControlRepeat:
				return usageError(fs, stderr, "--times must be from 1 to %d", checkouttest.MaxControlRepeat)
			}
			base, err := url.Parse(strings.TrimRight(*fake, "/"))
			if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
				if hint := urlHint(*fake); hint != "" {
					return usageError(fs, stderr, "%s %s has no scheme: write %s", ef.source("fake"), *fake, hint)
				}
				return usageError(fs, stderr, "%s %s is not an http(s) URL", ef.source("fake"), checkouttest.RedactURL(*fake))
			}
			if action == "fault" {
				q := url.Values{"path": {*path}}
				for k, v := range map[string]string{"method": *method, "status": strconv.Itoa(*status), "times": strconv.Itoa(*times),
					"drop": strconv.FormatBool(*drop), "after": strconv.FormatBool(*after), "delay": delay.String()} {
					if given[k] {
						q.Set(k, v)
					}
				}
				return triggerFault(ctx, base.String()+checkouttest.ControlPrefix+"faults?"+q.Encode(), *asJSON, stdout, stderr)
			}
			q := url.Values{}
			switch {
			case *refundID != "":
				q.Set("unique_request_id", *refundID)
			case action == "resend" && *times > 1:
				q.Set("times", strconv.Itoa(*times))
			}
			if *amount != "" {
				q.Set("amount", *amount)
			}
			if *dups > 0 {
				q.Set("duplicates", strconv.Itoa(*dups))
			}
			u := base.String() + checkouttest.ControlPrefix + "orders/" + url.PathEscape(*order) + "/" + action
			if len(q) > 0 {
				u += "?" + q.Encode()
			}
			return trigger(ctx, u, *asJSON, stdout, stderr)
		}
	}}
}

// control posts to the control endpoint u and returns the body of its 200
// reply; nil when it failed, which it reported on stderr.
func control(ctx context.Context, u string, stderr io.Writer) []byte {
	ctx, cancel := context.WithTimeout(ctx, checkouttest.ControlWait+10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		fmt.Fprintf(stderr, "checkout trigger: %s\n", printable(err.Error()))
		return nil
	}
	req.Header.Set(checkouttest.ControlHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "checkout trigger: is the fake running? %s\n", printable(err.Error()))
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		fmt.Fprintf(stderr, "checkout trigger: reading the reply: %s\n", printable(err.Error()))
		return nil
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error == "" {
			e.Error = fmt.Sprintf("HTTP %d from %s (is it a checkout fake?)", resp.StatusCode, checkouttest.RedactURL(u))
		}
		fmt.Fprintf(stderr, "checkout trigger: %s\n", printable(e.Error))
		return nil
	}
	return body
}

// triggerFault arms a fault through the control endpoint u and reports it.
func triggerFault(ctx context.Context, u string, asJSON bool, stdout, stderr io.Writer) int {
	body := control(ctx, u, stderr)
	if body == nil {
		return exitFail
	}
	var res checkouttest.FaultResult
	if err := json.Unmarshal(body, &res); err != nil {
		fmt.Fprintf(stderr, "checkout trigger: the reply is not a fault: %s\n", printable(err.Error()))
		return exitFail
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&res); err != nil {
			fmt.Fprintf(stderr, "checkout trigger: %s\n", printable(err.Error()))
			return exitFail
		}
		return exitOK
	}
	method := res.Method
	if method == "" {
		method = "any method"
	}
	fmt.Fprintf(stdout, "fault armed: %s %s, the next %d request%s: %s\n", method, res.Path, res.Times, plural(res.Times), res.Fault)
	return exitOK
}

// trigger posts to the control endpoint u and reports the reply.
func trigger(ctx context.Context, u string, asJSON bool, stdout, stderr io.Writer) int {
	body := control(ctx, u, stderr)
	if body == nil {
		return exitFail
	}
	var res checkouttest.ControlResult
	if err := json.Unmarshal(body, &res); err != nil {
		fmt.Fprintf(stderr, "checkout trigger: the reply is not a control result: %s\n", printable(err.Error()))
		return exitFail
	}
	// The fake redacts the webhook URLs; the redirect keeps its signed
	// query, for a return handler to be tried with, unless it holds user
	// information.
	for i, d := range res.Deliveries {
		res.Deliveries[i].URL = checkouttest.RedactURL(d.URL) // a fake of another version may not have
		if d.URL == "" {
			res.Deliveries[i].Error = noWebhookURL // the fake's words are for Go
		}
	}
	if ret, err := url.Parse(res.ReturnURL); err != nil || ret.User != nil {
		res.ReturnURL = checkouttest.RedactURL(res.ReturnURL)
	}
	if asJSON {
		// Written again from res, whose URLs hold no secret.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // a URL's "&" as written
		if err := enc.Encode(&res); err != nil {
			fmt.Fprintf(stderr, "checkout trigger: %s\n", printable(err.Error()))
			return exitFail
		}
		_, _ = stdout.Write(terminalJSON(buf.Bytes()))
	} else {
		fmt.Fprintf(stdout, "order %s: %s (status_id %d)\n", printable(res.OrderID), printable(res.Status), res.StatusID)
	}
	code := exitOK
	for _, d := range res.Deliveries {
		switch {
		case d.URL == "":
			if !asJSON {
				fmt.Fprintf(stdout, "webhook %s: not sent, %s\n", printable(d.EventName), noWebhookURL)
			}
		case d.Notified:
			if !asJSON {
				fmt.Fprintf(stdout, "webhook %s %s: delivered to %s (200 after %d attempt%s)\n",
					printable(d.EventName), printable(d.EventID), printable(d.URL), d.Attempts, plural(d.Attempts))
			}
		default:
			code = exitFail
			fmt.Fprintf(stderr, "checkout trigger: webhook %s %s to %s not acknowledged: %s\n",
				printable(d.EventName), printable(d.EventID), printable(d.URL), printable(notAcknowledged(d)))
		}
	}
	if res.ReturnURL != "" && !asJSON {
		fmt.Fprintf(stdout, "return_url redirect: %s\n", printable(res.ReturnURL))
	}
	return code
}

// noWebhookURL says why a delivery was not sent, in the command's words.
const noWebhookURL = "no webhook URL: give the fake --webhook-url, or the order metadata.webhook_url"

// isAmount reports whether s is an amount the fake settles: positive,
// at most two places.
func isAmount(s string) bool {
	minor, err := checkout.Amount(s).Minor()
	return err == nil && minor > 0
}

// notAcknowledged says how a delivery ended without a 200: the last reply
// and the attempts, then why no more were made. The fake's own reason may
// count the attempts already ("gave up after 10 attempts"): they are said
// once.
func notAcknowledged(d checkouttest.ControlDelivery) string {
	last := "no reply"
	if d.LastStatus != 0 {
		last = fmt.Sprintf("last status %d", d.LastStatus)
	}
	switch {
	case d.Error == "":
		return fmt.Sprintf("%s after %d attempt%s; still being re-sent when the wait ended", last, d.Attempts, plural(d.Attempts))
	case strings.Contains(d.Error, strconv.Itoa(d.Attempts)+" attempt"):
		return fmt.Sprintf("%s; %s", last, d.Error)
	default:
		return fmt.Sprintf("%s after %d attempt%s; %s", last, d.Attempts, plural(d.Attempts), d.Error)
	}
}

// urlHint returns the URL to write for an address given without a scheme,
// such as 127.0.0.1:8080 (the form checkout fake --addr takes); "" when s
// has a scheme or would not make a URL without user information.
func urlHint(s string) string {
	if strings.Contains(s, "://") {
		return ""
	}
	u, err := url.Parse("http://" + s)
	if err != nil || u.Host == "" || u.User != nil {
		return ""
	}
	return "http://" + s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
