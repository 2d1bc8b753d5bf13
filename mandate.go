package checkout

import (
	"fmt"
	"time"

	"github.com/payorch/checkout-go/validation"
)

// MandateOption says whether the checkout screen sets up a mandate: the
// session request's options.create_mandate. Values other than the constants
// are sent as given; Lint reports them.
type MandateOption string

// The values of MandateOption.
const (
	// MandateRequired shows only mandate-enabled payment options.
	MandateRequired MandateOption = "REQUIRED"
	// MandateOptional lets the customer choose a one-time or a mandate
	// payment.
	MandateOptional MandateOption = "OPTIONAL"
)

// Mandate asks the session to set up a mandate, a standing permission to
// debit the customer again later; its keys are top-level keys of the
// session body.
type Mandate struct {
	// Option is sent as options.create_mandate. Without it the service
	// sets up no mandate and the other keys have no effect (Lint says so).
	Option MandateOption `json:"options.create_mandate,omitempty"`
	// MaxAmount is the most one debit may take (mandate.max_amount),
	// required with Option. A body with the older spelling
	// mandate_max_amount decodes into it.
	MaxAmount Amount `json:"mandate.max_amount,omitempty"`
	// StartDate is when the mandate starts, sent as mandate.start_date in
	// Unix seconds as text ("1644420442"). The zero time is not sent.
	StartDate time.Time `json:"-"`
	// EndDate is when the mandate ends, sent as mandate.end_date like
	// StartDate; Lint advises it to be after StartDate.
	EndDate time.Time `json:"-"`
}

// lint gives the advice on a mandate.
func (m *Mandate) lint(v *validation.Error) {
	lintAmount(v, keyMandateMax, m.MaxAmount)
	switch m.Option {
	case MandateRequired, MandateOptional:
	case "":
		v.Add(keyMandateOption, "is not set: without it the service sets up no mandate and the other mandate keys have no effect")
	default:
		v.Add(keyMandateOption, fmt.Sprintf("%q is neither %s nor %s", string(m.Option), MandateRequired, MandateOptional))
	}
	if minor, err := m.MaxAmount.Minor(); err == nil && minor < 100 {
		v.Add(keyMandateMax, "is below 1.00, which the service refuses for a mandate")
	}
	if !m.StartDate.IsZero() && m.StartDate.Unix() <= 0 {
		v.Add(keyMandateStart, "is not after 1970-01-01")
	}
	if !m.EndDate.IsZero() && m.EndDate.Unix() <= 0 {
		v.Add(keyMandateEnd, "is not after 1970-01-01")
	}
	if !m.StartDate.IsZero() && !m.EndDate.IsZero() && !m.EndDate.After(m.StartDate) {
		v.Add(keyMandateEnd, "is not after "+keyMandateStart)
	}
}
