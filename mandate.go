package checkout

import "time"

// MandateOption says whether the checkout screen sets up a mandate: the
// session request's options.create_mandate. Values other than the constants
// are sent as given; [lint.Check] reports them.
type MandateOption string

// The values of MandateOption.
const (
	// MandateRequired shows only mandate-enabled payment options.
	MandateRequired MandateOption = "REQUIRED"
	// MandateOptional lets the customer choose a one-time or a mandate
	// payment.
	MandateOptional MandateOption = "OPTIONAL"
)

// Valid reports whether o is MandateRequired or MandateOptional. The zero
// value is not Valid.
func (o MandateOption) Valid() bool { return o == MandateRequired || o == MandateOptional }

// Mandate asks the session to set up a mandate, a standing permission to
// debit the customer again later; its keys are top-level keys of the
// session body.
type Mandate struct {
	// Option is sent as options.create_mandate. Without it the service
	// sets up no mandate and the other keys have no effect ([lint.Check] says
	// so).
	Option MandateOption `json:"options.create_mandate,omitempty"`
	// MaxAmount is the most one debit may take (mandate.max_amount),
	// required with Option. A body with the older spelling
	// mandate_max_amount decodes into it.
	MaxAmount Amount `json:"mandate.max_amount,omitempty"`
	// StartDate is when the mandate starts, sent as mandate.start_date in
	// Unix seconds as text ("1644420442"). The zero time is not sent.
	StartDate time.Time `json:"-"`
	// EndDate is when the mandate ends, sent as mandate.end_date like
	// StartDate; [lint.Check] advises it to be after StartDate.
	EndDate time.Time `json:"-"`
}
