package spelling

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCaseMistake: the message for a known value in another case, and
// none for a known value or one the SDK does not know.
func TestCaseMistake(t *testing.T) {
	require.Equal(t, `unknown card type "credit": values are case sensitive, did you mean "CREDIT"?`,
		CaseMistake("card type", "credit", []string{"DEBIT", "CREDIT"}))
	require.Empty(t, CaseMistake("card type", "CREDIT", []string{"CREDIT"}))
	require.Empty(t, CaseMistake("card type", "PREPAID", []string{"CREDIT"}))
}

// TestUnknown: a likely typo names the closest known value; another
// unknown value of a closed set lists the set; known values, case
// mistakes and empty values get no advice.
func TestUnknown(t *testing.T) {
	methods := []string{"CARD", "UPI", "WALLET", "NB", "CONSUMER_FINANCE", "WALLETS"}
	tests := []struct {
		s      string
		closed bool
		want   string
	}{
		{"WALLLET", false, `unknown method "WALLLET": likely a typo, did you mean "WALLET"?`},
		{"walet", false, `unknown method "walet": likely a typo, did you mean "WALLET"?`},
		{"CONSUMERFINANSE", false, `unknown method "CONSUMERFINANSE": likely a typo, did you mean "CONSUMER_FINANCE"?`},
		{"UIP", false, `unknown method "UIP": likely a typo, did you mean "UPI"?`},
		{"CRYPTO", false, ""},
		{"CRYPTO", true, `unknown method "CRYPTO": the service documents CARD, UPI, WALLET, NB, CONSUMER_FINANCE, WALLETS only`},
		{"WALLETS", false, ""},
		{"wallet", true, ""},
		{"", true, ""},
		{"CASH", false, ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, Unknown("method", tt.s, methods, tt.closed), tt.s)
	}
	require.Equal(t, `unknown x "`+strings.Repeat("A", 40)+`": the service documents B only`,
		Unknown("x", strings.Repeat("A", 100), []string{"B"}, true), "at most 40 characters of the value")
}
