package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

const lintHelp = `Usage: checkout lint [flags] [FILE]

Reads a request as JSON from FILE, or from stdin when FILE is absent or
"-", checks it as the client does before sending (Validate), and prints the
advice of package lint on what the service takes but is probably a
mistake, one "advice: PATH: MESSAGE" line each. What Validate refuses is
printed as "refused: PATH: MESSAGE" lines.

--type says what the JSON is: session (a session request body, as
CreateSession sends it), filter (a payment_filter object) or emi (an
emiOptions object). The order and customer calls send forms, not JSON:
their advice is lint.Check's in Go.

  checkout lint --type session body.json
  checkout filter --hide WALLET | checkout lint --type filter

Exit status 0 when the request is valid and there is no advice, 1 when
Validate refuses it or there is advice, 2 on a usage error or unreadable
input.

Flags:
`

// lintTypes are the values of --type, in the order the help lists them,
// each with the check of a body of that type.
func lintTypes() []struct {
	name  string
	check func(data []byte) ([]validation.Problem, error, error)
} {
	return []struct {
		name  string
		check func(data []byte) ([]validation.Problem, error, error)
	}{
		{"session", func(d []byte) ([]validation.Problem, error, error) { return checkBody(d, new(checkout.SessionRequest)) }},
		{"filter", func(d []byte) ([]validation.Problem, error, error) { return checkBody(d, new(paymentfilter.Filter)) }},
		{"emi", func(d []byte) ([]validation.Problem, error, error) { return checkBody(d, new(emi.Options)) }},
	}
}

// checkBody decodes data into r and returns its advice, what its Validate
// refuses, and the decoding error.
func checkBody[R interface {
	lint.Request
	Validate() error
}](data []byte, r R) (advice []validation.Problem, refused, err error) {
	if err := json.Unmarshal(data, r); err != nil {
		return nil, nil, err
	}
	return lint.Check(r), r.Validate(), nil
}

func lintCommand() command {
	return command{name: "lint", help: lintHelp, setup: func(fs *flag.FlagSet, _ func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		names := make([]string, 0, len(lintTypes()))
		for _, t := range lintTypes() {
			names = append(names, t.name)
		}
		typ := fs.String("type", "", "what the JSON is: `"+strings.Join(names, "|")+"` (required)")
		return func(_ context.Context, args []string, stdout, stderr io.Writer) int {
			i := slices.Index(names, *typ)
			switch {
			case *typ == "":
				return usageError(fs, stderr, "--type is required: one of %s", strings.Join(names, ", "))
			case i < 0:
				return usageError(fs, stderr, "--type %q is not one of %s", *typ, strings.Join(names, ", "))
			case len(args) > 1:
				return usageError(fs, stderr, "give one FILE, not %d", len(args))
			}
			data, err := readInput(args)
			if err != nil {
				fmt.Fprintf(stderr, "checkout lint: %v\n", err)
				return exitUsage
			}
			advice, refused, err := lintTypes()[i].check(data)
			if err != nil {
				fmt.Fprintf(stderr, "checkout lint: the input is not a %s: %v\n", *typ, err)
				return exitUsage
			}
			code := exitOK
			var ve *validation.Error
			switch {
			case errors.As(refused, &ve):
				for _, p := range ve.Problems {
					fmt.Fprintf(stdout, "refused: %s\n", p)
				}
				code = exitFail
			case refused != nil:
				fmt.Fprintf(stdout, "refused: %v\n", refused)
				code = exitFail
			}
			for _, p := range advice {
				fmt.Fprintf(stdout, "advice: %s\n", p)
				code = exitFail
			}
			return code
		}
	}}
}

// readInput reads the file args names, or stdin when there is none or it
// is "-".
func readInput(args []string) ([]byte, error) {
	if len(args) == 0 || args[0] == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(args[0])
}
