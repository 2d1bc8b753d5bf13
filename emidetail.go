package checkout

import "encoding/json"

// EMIDetails is the plan of an EMI payment (emi_details). The service
// sends the interest and the tenure as objects, or as bare numbers in
// older replies: both read (see [EMIInterest], [EMITenure]).
type EMIDetails struct {
	// Bank is the bank that gave the plan.
	Bank string `json:"bank,omitempty"`
	// EMIType is the kind of plan: STANDARD_EMI, NO_COST_EMI,
	// LOW_COST_EMI.
	EMIType string `json:"emi_type,omitempty"`
	// Tenure is how long the customer pays.
	Tenure EMITenure `json:"tenure,omitzero"`
	// Interest is the interest the customer pays over the plan.
	Interest EMIInterest `json:"interest,omitzero"`
	// MonthlyPayment is one instalment (monthly_payment).
	MonthlyPayment Amount `json:"monthly_payment,omitempty"`
	// PrincipalAmount is the sum lent (principal_amount).
	PrincipalAmount Amount `json:"principal_amount,omitempty"`
	// AdditionalProcessingFee is the bank's fee for the plan and its tax
	// (additional_processing_fee_info).
	AdditionalProcessingFee EMIFee `json:"additional_processing_fee_info,omitzero"`
	// SubventionAmount is what you bear of the interest of a no-cost or
	// low-cost plan (subvention_amount).
	SubventionAmount Amount `json:"subvention_amount,omitempty"`
	// SubventionInfo lists the plan's subventions (subvention_info), each
	// as the service sent it: no published reply shows one's keys.
	SubventionInfo []json.RawMessage `json:"subvention_info,omitempty"`
	// ProcessedBy names who ran the plan (processed_by).
	ProcessedBy string `json:"processed_by,omitempty"`
}

// EMITenure is how long an EMI plan runs: {"duration": 3, "unit":
// "months"}. A bare number (or text holding one) is the Duration, its
// Unit left empty as the service did not say it.
type EMITenure struct {
	// Duration is the number of Units (duration).
	Duration Int `json:"duration,omitempty"`
	// Unit is the unit of Duration ("months").
	Unit string `json:"unit,omitempty"`
}

// UnmarshalJSON reads the object or a bare number; anything else (null,
// "FILTERED") leaves t unchanged.
func (t *EMITenure) UnmarshalJSON(data []byte) error {
	type plain EMITenure
	if kindOf(data) == "object" {
		return decodeLenient(data, (*plain)(t))
	}
	return t.Duration.UnmarshalJSON(data)
}

// EMIInterest is the interest of an EMI plan: {"amount": "1724.87",
// "rate": 16, "tax": null}. A bare amount (a number or text holding one)
// is the Amount.
type EMIInterest struct {
	// Amount is the interest the customer pays over the plan.
	Amount Amount `json:"amount,omitempty"`
	// Rate is the yearly rate, in percent.
	Rate Amount `json:"rate,omitempty"`
	// Tax is the tax on the interest.
	Tax Amount `json:"tax,omitempty"`
}

// UnmarshalJSON reads the object or a bare amount; anything else (null,
// "FILTERED") leaves i unchanged.
func (i *EMIInterest) UnmarshalJSON(data []byte) error {
	type plain EMIInterest
	if kindOf(data) == "object" {
		return decodeLenient(data, (*plain)(i))
	}
	return i.Amount.UnmarshalJSON(data)
}

// EMIFee is the bank's fee for an EMI plan and the tax on it
// (additional_processing_fee_info).
type EMIFee struct {
	// Fee is the fee.
	Fee Amount `json:"fee,omitempty"`
	// Tax is the tax on the fee.
	Tax Amount `json:"tax,omitempty"`
}
