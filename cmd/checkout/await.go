package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
)

const awaitHelp = `Usage: checkout await ORDER_ID --amount AMOUNT [flags]

Polls the order's status (GET /orders/{order_id}) until it is final, on the
schedule of the SDK's AwaitFinal (5s, 5s, 10s, 10s, 30s, then every 60s,
or --intervals), and prints it:

  checkout await ord_1 --amount 10.00 --base-url https://… --merchant-id shop --api-key …
  checkout await ord_1 --amount 10.00 --fake http://127.0.0.1:8080 --merchant-id shop

The exit status is 0 when the order is paid as OrderStatus.CheckPaid says:
CHARGED, and its amount is --amount (an order settled for less is not
paid); 1 when it ended otherwise (failed, voided, underpaid…), when
--timeout or its order_expiry passed first, or when the service refused
(unknown order, bad credentials); 2 on a usage error. --amount is
required: --any-amount takes any CHARGED order as paid. --fake (or
CHECKOUT_FAKE_URL) awaits an order of "checkout fake", with the fake's own
key (CHECKOUT_FAKE_API_KEY), never a production client's CHECKOUT_API_KEY.

Flags:
`

func awaitCommand() command {
	return command{name: "await", help: awaitHelp, setup: func(fs *flag.FlagSet, env func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		ef := newEnvFlags(fs, env)
		base := ef.String("base-url", checkout.EnvBaseURL, "", "the service's base `URL` (this or --fake is required)")
		fake := ef.String("fake", "CHECKOUT_FAKE_URL", "", "base `URL` of a running \"checkout fake\", instead of --base-url")
		merchant := ef.String("merchant-id", checkout.EnvMerchantID, "", "your merchant `id` (required)")
		key := ef.String("api-key", checkout.EnvAPIKey, "", "your API `key` (required; with --fake, CHECKOUT_FAKE_API_KEY)")
		amount := fs.String("amount", "", "the `amount` the order must be paid, as CheckPaid checks it (required unless --any-amount)")
		anyAmount := fs.Bool("any-amount", false, "take any CHARGED order as paid, whatever its amount")
		timeout := fs.Duration("timeout", 30*time.Minute, "give up after this `duration`")
		intervals := fs.String("intervals", "", "the waits between polls, comma-separated, the last repeating (`5s,10s,60s`)")
		asJSON := fs.Bool("json", false, "print the service's JSON reply instead of text")
		return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			if err := ef.apply(); err != nil {
				return usageError(fs, stderr, "%v", err)
			}
			if len(args) != 1 || args[0] == "" {
				return usageError(fs, stderr, "name one ORDER_ID")
			}
			switch {
			case *amount == "" && !*anyAmount:
				return usageError(fs, stderr, "--amount is required: the amount the order must be paid (or --any-amount)")
			case *amount != "" && *anyAmount:
				return usageError(fs, stderr, "--amount and --any-amount exclude each other")
			case *amount != "":
				if _, err := checkout.Amount(*amount).Minor(); err != nil {
					return usageError(fs, stderr, "--amount %q is not an amount like 10.00", *amount)
				}
			}
			if *base == "" && *fake != "" {
				*base = *fake
				if ef.fromEnv["api-key"] { // a production client's key never goes to the fake
					*key = ""
				}
				if *key == "" {
					*key = env("CHECKOUT_FAKE_API_KEY")
				}
			}
			var schedule []time.Duration
			for _, s := range list(*intervals) {
				d, err := time.ParseDuration(s)
				if err != nil || d <= 0 {
					return usageError(fs, stderr, "--intervals: %q is not a positive duration", s)
				}
				schedule = append(schedule, d)
			}
			keyVar := checkout.EnvAPIKey
			if *fake != "" && *base == *fake {
				keyVar = "CHECKOUT_FAKE_API_KEY"
			}
			var missing []string
			for _, f := range [...]struct{ name, v string }{{"--base-url (or --fake)", *base},
				{"--merchant-id (" + checkout.EnvMerchantID + ")", *merchant}, {"--api-key (" + keyVar + ")", *key}} {
				if f.v == "" {
					missing = append(missing, f.name)
				}
			}
			if len(missing) > 0 {
				verb := "are"
				if len(missing) == 1 {
					verb = "is"
				}
				return usageError(fs, stderr, "%s %s required", strings.Join(missing, ", "), verb)
			}
			c, err := checkout.NewClient(*merchant, *key, checkout.WithBaseURL(*base))
			if err != nil {
				return usageError(fs, stderr, "%v", err)
			}
			ctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			st, err := c.AwaitFinal(ctx, args[0], checkout.WithPollIntervals(schedule...))
			switch {
			case st != nil && *asJSON:
				fmt.Fprintf(stdout, "%s\n", terminalJSON(st.Raw))
			case st != nil:
				fmt.Fprintf(stdout, "order %s: %s (amount %s %s)\n", printable(st.OrderID), printable(string(st.Status)),
					printable(string(st.Amount)), printable(st.Currency))
			}
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					err = fmt.Errorf("%w (--timeout %s)", err, *timeout)
				}
				fmt.Fprintf(stderr, "checkout await: %s\n", printable(err.Error()))
				return exitFail
			}
			if *anyAmount && st.IsPaid() {
				return exitOK
			}
			if err := st.CheckPaid(checkout.Amount(*amount)); err != nil {
				fmt.Fprintf(stderr, "checkout await: %v\n", err)
				return exitFail
			}
			return exitOK
		}
	}}
}
