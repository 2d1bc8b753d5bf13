package lint_test

import (
	"os"
	"testing"

	"github.com/payorch/checkout-go/internal/conformance"
)

// TestMain says, in one line on stderr, how many tests were skipped for
// want of the service's published samples (a clone without ../shared).
func TestMain(m *testing.M) { os.Exit(conformance.Main(m)) }
