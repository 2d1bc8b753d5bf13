// Package productsummary models the product summary block (spec §2.6).
package productsummary

// STUB: replaced by the productsummary implementation. Kept only so that dependants compile.

// Summary is the product_summary array: lines of items.
type Summary []Line

// Line is one line of items.
type Line []any

// Validate checks the summary; problem paths start with "product_summary".
func (s Summary) Validate() error { return nil }

// MarshalText returns the JSON text of the array, which the session request
// sends as a string.
func (s Summary) MarshalText() ([]byte, error) { return []byte("[]"), nil }
