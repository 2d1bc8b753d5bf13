// Command checkout runs the SDK's fake of the payment service as a
// standalone server, drives it, and prints payment filters, for mobile
// developers and test suites not written in Go.
//
//	go install github.com/payorch/checkout-go/cmd/checkout@latest
//
//	checkout fake --addr 127.0.0.1:8080 --merchant-id shop --api-key test_key \
//	    --webhook-url http://127.0.0.1:3000/webhooks --webhook-user shop --webhook-password secret
//	checkout fake --jwe-keys-dir ./keys ...     # also: the JWE+JWS keys and key id, as files for your client
//	checkout trigger pay --order ord_1          # pay, fail or refund an order; the webhook is delivered
//	checkout trigger resend --order ord_1       # its last webhook again (--duplicates N on a move)
//	checkout filter --hide WALLET --hide-card-types CREDIT
//	checkout filter --preview --hide WALLET     # the options the fake's payment page shows
//	checkout filter --emi-only-no-cost          # emiOptions too, with the --emi-* flags
//	checkout lint --type session body.json      # the advice on a request body
//
// Every command takes --help. Flags can also be given as environment
// variables (named in each command's help); a flag wins over its variable.
// The exit status is 0 on success, 1 on failure and 2 on a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const usage = `checkout: the checkout-go SDK's command line

Usage:
  checkout fake [flags]                     run the fake payment service until Ctrl-C or SIGTERM
  checkout trigger pay|fail|refund [flags]  move an order of a running fake; its webhook is delivered
  checkout trigger resend [flags]           send an order's last webhook again
  checkout filter [flags]                   print the JSON of a payment filter, or (--preview) its payment page
  checkout lint --type TYPE [FILE]          print the advice on a JSON body (session, filter, emi)
  checkout await ORDER_ID --amount A        poll an order until it is final (exit 0 paid that amount, 1 not)
  checkout help [command]                   show this text, or a command's flags

Run "checkout <command> --help" for a command's flags and environment variables.
Exit status: 0 success, 1 failure, 2 usage error.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// command is one subcommand: its flags and what it does once they are
// parsed.
type command struct {
	name string
	// help is the text --help prints above the flags.
	help string
	// setup declares the flags on fs and returns the function to run.
	setup func(fs *flag.FlagSet, env func(string) string) func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{fakeCommand(), triggerCommand(), filterCommand(), lintCommand(), awaitCommand()}
}

// run is the whole program; env reads the environment. Nothing it prints
// carries a terminal control (termWriter): replies are text others chose.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, env func(string) string) int {
	stdout, stderr = termWriter{stdout}, termWriter{stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "help":
		if len(rest) == 0 {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		name, rest = rest[0], []string{"--help"}
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		fs := flag.NewFlagSet("checkout "+c.name, flag.ContinueOnError)
		// The flag package prints a parse error to fs's output and calls
		// Usage, for -help too: both are silenced, so that the help is
		// printed once, on stdout when asked for, and an error once, below,
		// in the command's own words.
		fs.SetOutput(io.Discard)
		fs.Usage = func() {}
		help := func(w io.Writer) {
			fmt.Fprint(w, c.help)
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
		do := c.setup(fs, env)
		// Flags may follow the command's own words ("trigger pay --order x").
		var words []string
		for len(rest) > 0 && !isFlag(rest[0]) {
			words, rest = append(words, rest[0]), rest[1:]
		}
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help(stdout) // asked for: the output, and success
				return exitOK
			}
			return usageError(fs, stderr, "%v", err)
		}
		return do(ctx, append(words, fs.Args()...), stdout, stderr)
	}
	fmt.Fprintf(stderr, "checkout: unknown command %q\n\n%s", name, usage)
	return exitUsage
}

func isFlag(s string) bool { return len(s) > 1 && s[0] == '-' }

// usageError prints a usage problem of fs's command and returns exitUsage.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fmt.Fprintf(stderr, "Run \"%s --help\" for its flags.\n", fs.Name())
	return exitUsage
}
