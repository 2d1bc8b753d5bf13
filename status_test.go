package checkout

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every documented status has its status_id (DESIGN §3); the
// service-declined status is recognised under any namespace.
func TestStatusIDs(t *testing.T) {
	for _, tt := range []struct {
		s     Status
		id    int
		final bool
	}{
		{StatusCreated, 1, false},
		{StatusNew, 10, false},
		{StatusStarted, 20, false},
		{StatusCharged, 21, true},
		{StatusServiceDeclined, 22, true},
		{"JUSPAY_DECLINED", 22, true},
		{"ACME_PAY2_DECLINED", 22, true},
		{StatusPendingVBV, 23, false},
		{StatusVBVSuccessful, 24, false},
		{StatusAuthorized, 25, false},
		{StatusAuthenticationFailed, 26, true},
		{StatusAuthorizationFailed, 27, true},
		{StatusAuthorizing, 28, false},
		{StatusCODInitiated, 29, false},
		{StatusVoided, 31, true},
		{StatusVoidInitiated, 32, false},
		{StatusCaptureInitiated, 33, false},
		{StatusCaptureFailed, 34, true},
		{StatusVoidFailed, 35, true},
		{StatusAutoRefunded, 36, true},
		{StatusNotFound, 40, false},
		{StatusPartialCharged, 37, false},
		{StatusToBeCharged, 38, false},
	} {
		t.Run(string(tt.s), func(t *testing.T) {
			require.Equal(t, tt.id, tt.s.ID())
			require.True(t, tt.s.Known())
			require.Equal(t, tt.final, tt.s.IsFinal())
			require.Equal(t, tt.id == 22, tt.s.IsServiceDeclined())
			require.Equal(t, string(tt.s), tt.s.String())
		})
	}
	for _, s := range []Status{"", "_DECLINED", "juspay_DECLINED", "JUSPAY-DECLINED", "DECLINED", "charged", "REFUNDED_LATER"} {
		require.Zero(t, s.ID(), "%q", s)
		require.False(t, s.Known(), "%q", s)
		require.False(t, s.IsFinal(), "%q", s)
		require.False(t, s.IsServiceDeclined(), "%q", s)
	}
}

func TestOrderStatusIsPaidIsFinal(t *testing.T) {
	for _, tt := range []struct {
		st          OrderStatus
		paid, final bool
	}{
		{OrderStatus{Status: StatusCharged, StatusID: 21}, true, true},
		{OrderStatus{Status: StatusAuthorized, StatusID: 25}, false, false},
		{OrderStatus{Status: StatusCODInitiated, StatusID: 29}, false, false},
		{OrderStatus{Status: StatusPendingVBV, StatusID: 23}, false, false},
		{OrderStatus{Status: StatusAutoRefunded, StatusID: 36}, false, true},
		{OrderStatus{Status: "JUSPAY_DECLINED", StatusID: 22}, false, true},
		{OrderStatus{Status: "Declined by us", StatusID: 22}, false, true}, // classified by status_id
		{OrderStatus{Status: "SOMETHING_NEW", StatusID: 99}, false, false},
		{OrderStatus{StatusID: 21}, false, false}, // the status itself says paid, nothing else
	} {
		require.Equal(t, tt.paid, tt.st.IsPaid(), "%+v", tt.st)
		require.Equal(t, tt.final, tt.st.IsFinal(), "%+v", tt.st)
	}
	var nilStatus *OrderStatus
	require.False(t, nilStatus.IsPaid())
	require.False(t, nilStatus.IsFinal())
}

// CheckPaid compares amounts as decimals: the text the service sends and
// the text the merchant expects need not be spelt alike.
func TestCheckPaid(t *testing.T) {
	charged := func(amount Amount) *OrderStatus {
		return &OrderStatus{OrderID: "o1", Status: StatusCharged, Amount: amount}
	}
	for _, tt := range []struct {
		name     string
		st       *OrderStatus
		expected Amount
		notPaid  bool   // matches ErrNotPaid
		msg      string // in the error; "" for no error
	}{
		{"same text", charged("1499.00"), "1499.00", false, ""},
		{"1 equals 1.00", charged("1"), "1.00", false, ""},
		{"1.0 equals 1", charged("1.00"), "1", false, ""},
		{"trailing zeros", charged("10.50"), "10.5000", false, ""},
		{"exponent", charged("1000.00"), "1e3", false, ""},
		{"one paisa short", charged("1498.99"), "1499.00", true, `order "o1" amount is 1498.99, expected 1499.00`},
		{"more than expected", charged("1500"), "1499.99", true, "expected 1499.99"},
		{"not charged", &OrderStatus{OrderID: "o1", Status: StatusPendingVBV, Amount: "1.00"}, "1.00", true, `order "o1" is PENDING_VBV, not CHARGED`},
		{"authorized only", &OrderStatus{OrderID: "o1", Status: StatusAuthorized, Amount: "1.00"}, "1.00", true, "AUTHORIZED"},
		{"no status", &OrderStatus{OrderID: "o1", Amount: "1.00"}, "1.00", true, "without status"},
		{"no amount", charged(""), "1.00", true, "no readable amount"},
		{"unreadable amount", charged("FILTERED"), "1.00", true, "no readable amount"},
		{"bad expectation", charged("1.00"), "one rupee", true, `expected amount "one rupee" is not a decimal`},
		{"empty expectation", charged("1.00"), "", true, `expected amount "" is not a decimal`},
		{"huge exponent", charged("1.00"), "1e999999999", true, "is not a decimal"},
		{"nil", nil, "1.00", true, "no order status"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.st.CheckPaid(tt.expected)
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, tt.notPaid, errors.Is(err, ErrNotPaid), "%v", err)
			require.Contains(t, err.Error(), tt.msg)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: check paid: "), err.Error())
		})
	}
}
