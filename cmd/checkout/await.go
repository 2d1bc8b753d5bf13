package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	checkout "github.com/payorch/checkout-go"
)

const awaitHelp = `Usage: checkout await ORDER_ID [flags]

Polls the order's status (GET /orders/{order_id}) until it is final, on the
schedule of the SDK's AwaitFinal (5s, 5s, 10s, 10s, 30s, then every 60s,
or --intervals), and prints it:

  checkout await ord_1 --base-url http://127.0.0.1:8080 --merchant-id shop --api-key test_key

The exit status is 0 when the order is paid (CHARGED), 1 when it ended
otherwise (failed, voided, …), when --timeout or its order_expiry passed
first, or when the service refused (unknown order, bad credentials), and
2 on a usage error.

Flags:
`

func awaitCommand() command {
	return command{name: "await", help: awaitHelp, setup: func(fs *flag.FlagSet, env func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		ef := newEnvFlags(fs, env)
		base := ef.String("base-url", checkout.EnvBaseURL, "", "the service's base `URL` (required)")
		merchant := ef.String("merchant-id", checkout.EnvMerchantID, "", "your merchant `id` (required)")
		key := ef.String("api-key", checkout.EnvAPIKey, "", "your API `key` (required)")
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
			var schedule []time.Duration
			for _, s := range list(*intervals) {
				d, err := time.ParseDuration(s)
				if err != nil || d <= 0 {
					return usageError(fs, stderr, "--intervals: %q is not a positive duration", s)
				}
				schedule = append(schedule, d)
			}
			for _, f := range [...]struct{ name, v string }{{"base-url", *base}, {"merchant-id", *merchant}, {"api-key", *key}} {
				if f.v == "" {
					return usageError(fs, stderr, "--%s is required", f.name)
				}
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
			if !st.IsPaid() {
				return exitFail
			}
			return exitOK
		}
	}}
}
