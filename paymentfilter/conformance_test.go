package paymentfilter_test

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
	pf "github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/validation"
)

// sampleProblems lists the published samples that decode but that Validate
// rejects, with the path of the problem expected. Every other valid sample
// must validate.
// (The samples that send the wallets "LAZYPAY,SIMPL" as one string with a
// comma validate: the service takes them.)
var sampleProblems = map[string]string{
	// A WALLET option nested in cardFilters (flagged MALFORMED).
	"orderdetails_payment_filter_hide_visa_debit_sbi_MALFORMED.json": "payment_filter.options[0].cardFilters[1].paymentMethodType",
}

// TestConformanceRoundTrip decodes the payment_filter of every published
// sample and re-encodes it: the JSON tree must be exactly the same (key
// order aside; no sample uses the singular card keys or issuerFilters,
// the only spellings encoding changes, and a sample without options is
// sent back without options), no key may change case, and Validate must
// agree with sampleProblems. Samples that are not JSON must fail to decode.
func TestConformanceRoundTrip(t *testing.T) {
	samples := filterSamples(t)
	roundTripped := 0
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			if !s.ValidJSON() {
				var f pf.Filter
				require.Error(t, json.Unmarshal(s.Data, &f), "a sample that is not JSON must not decode")
				return
			}
			raw := samplePaymentFilter(t, s.Data)
			var f pf.Filter
			require.NoError(t, json.Unmarshal(raw, &f))
			out, err := json.Marshal(&f)
			require.NoError(t, err)

			require.Equal(t, wiretest.Tree(t, raw), wiretest.Tree(t, out))
			require.Equal(t, keyPaths(wiretest.Tree(t, raw), ""), keyPaths(wiretest.Tree(t, out), ""), "a key changed spelling or case")

			// Decoding the output again gives the same output (stable).
			var again pf.Filter
			require.NoError(t, json.Unmarshal(out, &again))
			out2, err := json.Marshal(&again)
			require.NoError(t, err)
			require.Equal(t, string(out), string(out2))

			err = f.Validate()
			if path, bad := sampleProblems[s.Name]; bad {
				var ve *validation.Error
				require.True(t, errors.As(err, &ve), "want a validation error, got %v", err)
				require.True(t, ve.Has(path), "want a problem at %s, got %v", path, err)
			} else {
				require.NoError(t, err)
			}
			roundTripped++
		})
	}
	require.GreaterOrEqual(t, roundTripped, 30, "most samples should round-trip")
}

// TestConformanceNegativeVectors: the samples published as invalid JSON
// (FRAGMENT, MALFORMED, and the process payload with a bad escape) give an
// error, from decoding or from Validate, and never a panic.
func TestConformanceNegativeVectors(t *testing.T) {
	samples := filterSamples(t)
	negatives := 0
	for _, s := range samples {
		if !negative(s) {
			continue
		}
		negatives++
		t.Run(s.Name, func(t *testing.T) {
			var f pf.Filter
			if !s.ValidJSON() {
				require.Error(t, json.Unmarshal(s.Data, &f))
				return
			}
			err := json.Unmarshal(samplePaymentFilter(t, s.Data), &f)
			if err == nil {
				err = f.Validate()
			}
			require.Error(t, err)
		})
	}
	require.GreaterOrEqual(t, negatives, 3)
}

// filterSamples returns the published samples that carry a payment filter:
// those of the payment_filter and emi folders.
func filterSamples(t *testing.T) []conformance.Sample {
	return append(conformance.Files(t, "payment_filter", "*.json"), conformance.Files(t, "emi", "*.json")...)
}

// negative reports a negative vector: not JSON, or flagged in capitals in
// its name. (conformance.Sample.Negative matches case-insensitively, which
// also catches the valid ".fragment.body.json" session bodies.)
func negative(s conformance.Sample) bool {
	if !s.ValidJSON() {
		return true
	}
	for _, w := range []string{"MALFORMED", "TRUNCATED", "FRAGMENT", "PARTIAL"} {
		if strings.Contains(s.Name, w) {
			return true
		}
	}
	return false
}

// keyPaths lists every key of a JSON tree with its path, sorted, so that a
// key whose case changed shows up by name.
func keyPaths(v any, prefix string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			out = append(out, prefix+"."+k)
			out = append(out, keyPaths(e, prefix+"."+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, keyPaths(e, prefix+"["+strconv.Itoa(i)+"]")...)
		}
	}
	sort.Strings(out)
	return out
}
