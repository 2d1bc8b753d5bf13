package checkout

import "strings"

// Status is the status of an order or of one of its transactions, as the
// service names it ("CHARGED", "PENDING_VBV", …). Statuses this package has
// no constant for are kept as the service wrote them.
type Status string

// The statuses the service documents, with their status_id in the
// comments ([Status.ID] returns it).
const (
	// StatusCreated (1) is an order just created through the order API.
	StatusCreated Status = "CREATED"
	// StatusNew (10) is an order no payment has been tried for yet.
	StatusNew Status = "NEW"
	// StatusStarted (20) is a payment that began but found no gateway to
	// go to (for example a gateway reference id that matches no
	// configured gateway).
	StatusStarted Status = "STARTED"
	// StatusCharged (21) is a successful payment: the only status in which
	// the order is paid.
	StatusCharged Status = "CHARGED"
	// StatusServiceDeclined (22) is a payment the service itself refused
	// (bad input, an offer that did not apply). Deployments of the service
	// write the name with their own brand ("JUSPAY_DECLINED"), so compare
	// with [Status.IsServiceDeclined] or status_id 22, not with this
	// constant.
	StatusServiceDeclined Status = "SERVICE_DECLINED"
	// StatusPendingVBV (23) is a payment waiting for the customer's
	// authentication (3-D Secure, an OTP, the UPI app).
	StatusPendingVBV Status = "PENDING_VBV"
	// StatusVBVSuccessful (24) is a payment whose authentication succeeded
	// and which waits for the bank.
	StatusVBVSuccessful Status = "VBV_SUCCESSFUL"
	// StatusAuthorized (25) is a card payment authorised but not captured
	// (pre-authorisation): it waits for your capture or void.
	StatusAuthorized Status = "AUTHORIZED"
	// StatusAuthenticationFailed (26) is a payment whose authentication the
	// customer did not complete.
	StatusAuthenticationFailed Status = "AUTHENTICATION_FAILED"
	// StatusAuthorizationFailed (27) is a payment the bank refused after
	// authentication.
	StatusAuthorizationFailed Status = "AUTHORIZATION_FAILED"
	// StatusAuthorizing (28) is a payment whose outcome the bank has not
	// given yet.
	StatusAuthorizing Status = "AUTHORIZING"
	// StatusCODInitiated (29) is a cash-on-delivery order: the cash is still
	// to be collected.
	StatusCODInitiated Status = "COD_INITIATED"
	// StatusVoided (31) is an authorisation you voided: nothing was taken.
	StatusVoided Status = "VOIDED"
	// StatusVoidInitiated (32) is a void the gateway has not confirmed yet.
	StatusVoidInitiated Status = "VOID_INITIATED"
	// StatusCaptureInitiated (33) is a capture the gateway has not
	// confirmed yet.
	StatusCaptureInitiated Status = "CAPTURE_INITIATED"
	// StatusCaptureFailed (34) is a capture the gateway refused.
	StatusCaptureFailed Status = "CAPTURE_FAILED"
	// StatusVoidFailed (35) is a void the gateway refused.
	StatusVoidFailed Status = "VOID_FAILED"
	// StatusAutoRefunded (36) is a payment the service refunded by itself,
	// for example one that succeeded after the order had been paid.
	StatusAutoRefunded Status = "AUTO_REFUNDED"
	// StatusNotFound (40) is the status of the service's reply for an
	// order it does not know (an [*APIError] matching [ErrNotFound]).
	StatusNotFound Status = "NOT_FOUND"
	// StatusPartialCharged (37) is an order paid in part: one of its
	// transactions is CHARGED and another, by another instrument, is still
	// to be charged (see [OrderStatus.TxnList]). It is not paid: wait for
	// CHARGED.
	StatusPartialCharged Status = "PARTIAL_CHARGED"
	// StatusToBeCharged (38) is a transaction of a partly paid order that
	// is still to be charged.
	StatusToBeCharged Status = "TO_BE_CHARGED"
)

// statusIDServiceDeclined is the status_id of the service's own refusal,
// whatever brand its name carries.
const statusIDServiceDeclined = 22

// ID returns the status_id the service gives s (21 for CHARGED, 22 for any
// service-declined name), or 0 for a status without a published number.
func (s Status) ID() int {
	switch s {
	case StatusCreated:
		return 1
	case StatusNew:
		return 10
	case StatusStarted:
		return 20
	case StatusCharged:
		return 21
	case StatusPendingVBV:
		return 23
	case StatusVBVSuccessful:
		return 24
	case StatusAuthorized:
		return 25
	case StatusAuthenticationFailed:
		return 26
	case StatusAuthorizationFailed:
		return 27
	case StatusAuthorizing:
		return 28
	case StatusCODInitiated:
		return 29
	case StatusVoided:
		return 31
	case StatusVoidInitiated:
		return 32
	case StatusCaptureInitiated:
		return 33
	case StatusCaptureFailed:
		return 34
	case StatusVoidFailed:
		return 35
	case StatusAutoRefunded:
		return 36
	case StatusPartialCharged:
		return 37
	case StatusToBeCharged:
		return 38
	case StatusNotFound:
		return statusIDNotFound
	}
	if s.IsServiceDeclined() {
		return statusIDServiceDeclined
	}
	return 0
}

// Known reports whether s is one of the statuses the service documents
// (any service-declined name counts). An unknown status is not an error:
// the service adds statuses; read it as text.
func (s Status) Known() bool {
	return s.ID() != 0
}

// IsServiceDeclined reports whether s is the service's own refusal of a
// payment (status_id 22): a name made of the deployment's namespace and
// "_DECLINED", such as SERVICE_DECLINED or JUSPAY_DECLINED.
func (s Status) IsServiceDeclined() bool {
	ns, ok := strings.CutSuffix(string(s), "_DECLINED")
	if !ok || ns == "" {
		return false
	}
	for _, r := range ns {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// IsFinal reports whether s is a terminal status: asking again will not
// change it. CHARGED, the failures (AUTHENTICATION_FAILED,
// AUTHORIZATION_FAILED, service-declined), VOIDED, AUTO_REFUNDED,
// CAPTURE_FAILED and VOID_FAILED are final. Every other status, and every
// status this package does not know, may still move: keep polling
// [Client.GetOrder] or wait for the webhook. AUTHORIZED waits for your
// capture or void.
func (s Status) IsFinal() bool {
	switch s {
	case StatusCharged, StatusAuthenticationFailed, StatusAuthorizationFailed,
		StatusVoided, StatusAutoRefunded, StatusCaptureFailed, StatusVoidFailed:
		return true
	}
	return s.IsServiceDeclined()
}

// String returns the status as the service writes it.
func (s Status) String() string { return string(s) }
