package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/spelling"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

const filterHelp = `Usage: checkout filter [flags]

Prints the JSON of the payment filter (a session request's payment_filter)
that the flags describe, checked as the SDK checks it before sending. Lists
are comma-separated; every flag but --only may be repeated, and they apply in
the order given. Method types: CARD, UPI, WALLET, NB, CONSUMER_FINANCE,
REWARD, CASH.

  checkout filter --hide WALLET,NB --hide-card-types CREDIT
  checkout filter --only UPI --hide-upi-handles @ybl
  checkout filter --hide-methods WALLET:PAYTM,PHONEPE --hide-bins 459000::460000

The --emi-* flags build the filter's emiOptions (which EMI plans are
offered), as package emi's methods do. Plan types are named by their keys,
standardEmi, lowCostEmi and noCostEmi, and a group of one as PLAN.GROUP
with the groups credit, debit and cardless:

  checkout filter --emi-only-no-cost
  checkout filter --emi-disable-group noCostEmi.credit --emi-remove-issuers noCostEmi.debit:SVC_ICICI
  checkout filter --emi-remove-tenures noCostEmi.credit:SVC_ICICI:9::12,18::24

--preview prints, instead of the JSON, the options the payment page of
"checkout fake" shows for the filter, and what hides the others. --file
starts from a filter in a JSON file (a payment_filter object, or a session
body holding payment_filter and sdk_udf), which the other flags then change:

  checkout filter --preview --hide WALLET --show-upi-apps GPAY,PHONEPE
  checkout filter --preview --file session.json --sdk-udf hideEMI

The advice of package lint on values the service takes but that are
probably mistakes (a method type that looks like a typo, such as WALLLET) is
printed on stderr as "checkout filter: advice: …"; --strict makes advice a
failure, as "checkout lint" does.

Exit status 1 when the SDK refuses the filter (its problems are printed),
with --strict when there is advice, or when the previewed page would offer
nothing to pay with.

Flags:
`

func filterCommand() command {
	return command{name: "filter", help: filterHelp, setup: func(fs *flag.FlagSet, _ func(string) string) func(context.Context, []string, io.Writer, io.Writer) int {
		var (
			only    []paymentfilter.MethodType
			ops     []func(*paymentfilter.Filter) *paymentfilter.Filter
			compact bool
			strict  bool
			preview bool
			file    string
			udf     string
		)
		// op declares a flag whose value, applied by step, becomes a step
		// of the chain; step refusing the value refuses the flag.
		op := func(name, help string, step filterStep) {
			fs.Func(name, help, func(v string) error {
				if _, err := step(paymentfilter.New(), v); err != nil { // refuse bad syntax at once
					return err
				}
				ops = append(ops, func(f *paymentfilter.Filter) *paymentfilter.Filter { f, _ = step(f, v); return f })
				return nil
			})
		}
		// boolOp declares a flag without a value that becomes a step.
		boolOp := func(name, help string, step func(*paymentfilter.Filter) *paymentfilter.Filter) {
			boolFlag(fs, name, help, func() { ops = append(ops, step) })
		}
		fs.Func("only", "show only these method `types` (the filter starts from paymentfilter.Only)", func(v string) error {
			if only != nil {
				return errors.New("give --only once")
			}
			t, err := listOf(v, noMethodType, asIs[paymentfilter.MethodType])
			only = t
			return err
		})
		op("hide", "hide these method `types`", listStep(noMethodType, asIs, (*paymentfilter.Filter).Hide))
		op("show", "show these method `types`", listStep(noMethodType, asIs, (*paymentfilter.Filter).Show))
		methods := func(hide bool) filterStep {
			return func(f *paymentfilter.Filter, v string) (*paymentfilter.Filter, error) {
				t, codes, ok := strings.Cut(v, ":")
				if !ok || strings.TrimSpace(t) == "" || len(list(codes)) == 0 {
					return nil, fmt.Errorf("%q is not TYPE:CODE,CODE", v)
				}
				if hide {
					return f.HideMethods(paymentfilter.MethodType(strings.TrimSpace(t)), list(codes)...), nil
				}
				return f.ShowMethods(paymentfilter.MethodType(strings.TrimSpace(t)), list(codes)...), nil
			}
		}
		op("hide-methods", "hide these payment methods of one type, `TYPE:CODE,CODE` (WALLET:PAYTM,PHONEPE)", methods(true))
		op("show-methods", "show these payment methods of one type, `TYPE:CODE,CODE`", methods(false))
		op("hide-card-types", "hide these card `types` (CREDIT, DEBIT)", listStep(emptyList, asIs, (*paymentfilter.Filter).HideCardTypes))
		op("show-card-types", "show only these card `types`", listStep(emptyList, asIs, (*paymentfilter.Filter).ShowCardTypes))
		op("hide-card-brands", "hide these card `brands` (VISA, MASTERCARD, …)", listStep(emptyList, asIs, (*paymentfilter.Filter).HideCardBrands))
		op("show-card-brands", "show only these card `brands`", listStep(emptyList, asIs, (*paymentfilter.Filter).ShowCardBrands))
		op("hide-card-banks", "hide the cards of these issuing `banks`", listStep(emptyList, asIs, (*paymentfilter.Filter).HideCardBanks))
		op("hide-upi-handles", "hide these UPI `handles` (@ybl, …)", listStep(emptyList, asIs, (*paymentfilter.Filter).HideUPIHandles))
		op("show-upi-handles", "show only these UPI `handles`", listStep(emptyList, asIs, (*paymentfilter.Filter).ShowUPIHandles))
		op("hide-upi-apps", "hide these UPI `apps` (PHONEPE, …)", listStep(emptyList, asIs, (*paymentfilter.Filter).HideUPIApps))
		op("show-upi-apps", "show only these UPI `apps`", listStep(emptyList, asIs, (*paymentfilter.Filter).ShowUPIApps))
		op("hide-bins", "hide cards in these BIN `ranges`, FROM::TO (459000::460000)", listStep(emptyList, paymentfilter.ParseBINRange, (*paymentfilter.Filter).HideBINRanges))
		op("show-bins", "show only cards in these BIN `ranges`", listStep(emptyList, paymentfilter.ParseBINRange, (*paymentfilter.Filter).ShowBINRanges))
		emiFlags(op, boolOp)
		fs.BoolVar(&compact, "compact", false, "print the JSON on one line")
		fs.BoolVar(&strict, "strict", false, "fail (exit 1, nothing printed on stdout) when there is advice on the filter")
		fs.BoolVar(&preview, "preview", false, "print the options the fake's payment page shows for the filter, instead of its JSON")
		fs.StringVar(&file, "file", "", "start from the filter in this JSON `file`: a payment_filter object, or a session body holding payment_filter and sdk_udf")
		fs.StringVar(&udf, "sdk-udf", "", "with --preview, the session's sdk_udf `value` (showEMI, hideEMI, ShowEMIWithoutCards); wins over the file's")
		return func(_ context.Context, args []string, stdout, stderr io.Writer) int {
			if len(args) > 0 {
				return usageError(fs, stderr, "unexpected argument %q", args[0])
			}
			switch {
			case file != "" && only != nil:
				return usageError(fs, stderr, "give --only or --file, not both")
			case udf != "" && !preview:
				return usageError(fs, stderr, "--sdk-udf is for --preview: the JSON printed is the payment_filter, which does not hold it")
			}
			f := paymentfilter.New()
			if only != nil {
				f = paymentfilter.Only(only...)
			}
			var fileUDF emi.Visibility
			if file != "" {
				var err error
				if f, fileUDF, err = readFilterFile(file); err != nil {
					fmt.Fprintf(stderr, "checkout filter: --file: %v\n", err)
					return exitFail
				}
			}
			if udf != "" {
				fileUDF = emi.Visibility(udf)
			}
			for _, step := range ops {
				f = step(f)
			}
			err := f.Validate()
			if msg := spelling.CaseMistake("EMI visibility", fileUDF, emi.Visibilities()); preview && err == nil && msg != "" {
				err = &validation.Error{Problems: []validation.Problem{{Path: "sdk_udf", Message: msg}}}
			}
			if err != nil {
				var ve *validation.Error
				if errors.As(err, &ve) {
					for _, p := range ve.Problems {
						fmt.Fprintf(stderr, "checkout filter: %s\n", p)
					}
				} else {
					fmt.Fprintf(stderr, "checkout filter: %v\n", err)
				}
				return exitFail
			}
			// The filter's advice, and with --preview the sdk_udf's: a
			// session holding only them has no other advice.
			advice := lint.Check(&checkout.SessionRequest{PaymentFilter: f, EMI: fileUDF})
			for _, p := range advice {
				fmt.Fprintf(stderr, "checkout filter: advice: %s\n", p)
			}
			if strict && len(advice) > 0 {
				fmt.Fprintln(stderr, "checkout filter: --strict: failing on the advice above")
				return exitFail
			}
			if preview {
				if err := printPreview(stdout, f, fileUDF); err != nil {
					fmt.Fprintf(stderr, "checkout filter: %v\n", err)
					return exitFail
				}
				return exitOK
			}
			var out []byte
			if compact {
				out, err = json.Marshal(f)
			} else {
				out, err = json.MarshalIndent(f, "", "  ")
			}
			if err != nil {
				fmt.Fprintf(stderr, "checkout filter: %v\n", err)
				return exitFail
			}
			_, _ = stdout.Write(append(out, '\n'))
			return exitOK
		}
	}}
}

// What a list flag with no item is refused with: the method type flags
// say what is missing, the others that the list is empty.
const (
	noMethodType = "no method type given"
	emptyList    = "empty list"
)

// listOf reads a comma-separated flag value (see list), each item by
// parse; a value with no item is refused with the error text empty.
func listOf[T any](v, empty string, parse func(string) (T, error)) ([]T, error) {
	items := list(v)
	if len(items) == 0 {
		return nil, errors.New(empty)
	}
	out := make([]T, 0, len(items))
	for _, s := range items {
		t, err := parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// listStep makes the step of a list flag: the value is read by listOf and
// its items handed to apply, a Filter method such as HideCardTypes.
func listStep[T any](empty string, parse func(string) (T, error), apply func(*paymentfilter.Filter, ...T) *paymentfilter.Filter) filterStep {
	return func(f *paymentfilter.Filter, v string) (*paymentfilter.Filter, error) {
		items, err := listOf(v, empty, parse)
		if err != nil {
			return nil, err
		}
		return apply(f, items...), nil
	}
}

// asIs reads a list item as the string type T without checking it: the
// filter's Validate judges the values.
func asIs[T ~string](s string) (T, error) { return T(s), nil }
