package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

// readFilterFile reads a payment filter from a JSON file: a payment_filter
// object, or a session request body holding payment_filter (and maybe
// sdk_udf), such as the service's published samples.
func readFilterFile(path string) (*paymentfilter.Filter, emi.Visibility, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, "", fmt.Errorf("%s is not a JSON object: %w", path, err)
	}
	if _, ok := top["payment_filter"]; !ok {
		var f paymentfilter.Filter
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		return &f, "", nil
	}
	var body struct {
		PaymentFilter *paymentfilter.Filter `json:"payment_filter"`
		SDKUDF        emi.Visibility        `json:"sdk_udf"`
	}
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if body.PaymentFilter == nil {
		return nil, "", fmt.Errorf("%s: payment_filter is null", path)
	}
	return body.PaymentFilter, body.SDKUDF, nil
}

// errNothingVisible is the failure of a preview whose page would offer
// nothing to pay with.
var errNothingVisible = errors.New("the filter leaves nothing to pay with on the payment page")

// printPreview writes what the fake's payment page shows for f and udf
// (checkouttest.PreviewPage, the page's own model): per section of the
// page, the value and label of each option shown, and what hides the
// others, by the JSON path of the entry that decided; then the notes on
// what the spec leaves open.
func printPreview(w io.Writer, f *paymentfilter.Filter, udf emi.Visibility) error {
	p := checkouttest.PreviewPage(f, udf)
	fmt.Fprintln(w, "The payment page of the fake (checkout fake, package checkouttest) shows:")
	for _, sec := range previewSections(p.Options) {
		var shown, hidden []checkouttest.PageOption
		for _, o := range sec.options {
			if o.Visible {
				shown = append(shown, o)
			} else {
				hidden = append(hidden, o)
			}
		}
		fmt.Fprintf(w, "\n%s: %d shown, %d hidden\n", printable(sec.title), len(shown), len(hidden))
		for _, o := range shown {
			fmt.Fprintf(w, "  %-40s %s\n", printable(o.Value), printable(o.Label))
		}
		if len(hidden) > 1 && sameWhy(hidden) {
			fmt.Fprintf(w, "  hidden, all %d: %s\n", len(hidden), printable(hidden[0].Why))
			continue
		}
		for _, o := range hidden {
			fmt.Fprintf(w, "  hidden %s: %s\n", printable(o.Value), printable(o.Why))
		}
	}
	if p.BINCheck {
		fmt.Fprintln(w, "\nThe filter names BIN ranges: the page asks for a card number and checks its BIN against them.")
	}
	if len(p.Notes) > 0 {
		fmt.Fprintln(w, "\nNotes:")
		for _, n := range p.Notes {
			fmt.Fprintf(w, "  - %s\n", printable(n))
		}
	}
	if len(p.Visible()) == 0 {
		return errNothingVisible
	}
	return nil
}

type previewSection struct {
	title   string
	options []checkouttest.PageOption
}

// previewSections groups the options as the page does: by section, and
// EMI plans by kind and group, in page order.
func previewSections(opts []checkouttest.PageOption) []previewSection {
	var out []previewSection
	for _, o := range opts {
		title := o.Section
		if o.Plan != nil {
			title += " (" + o.Plan.Kind + ", " + o.Plan.Group + ")"
		}
		if len(out) == 0 || out[len(out)-1].title != title {
			out = append(out, previewSection{title: title})
		}
		out[len(out)-1].options = append(out[len(out)-1].options, o)
	}
	return out
}

func sameWhy(opts []checkouttest.PageOption) bool {
	for _, o := range opts {
		if o.Why != opts[0].Why {
			return false
		}
	}
	return true
}
