package emi

import "strconv"

// Plan names one of the three EMI plan types of emiOptions, for the fluent
// methods of Options.
type Plan int

// The EMI plan types. Any other Plan value is unknown: the fluent methods
// of Options reject it (see New).
const (
	// Standard is standardEmi: standard EMI plans.
	Standard Plan = iota + 1
	// LowCost is lowCostEmi: low cost EMI plans.
	LowCost
	// NoCost is noCostEmi: no cost EMI plans.
	NoCost
)

// Instrument names one of the groups of a [SubFilter], for the fluent
// methods of Options.
type Instrument int

// The groups of a SubFilter. Any other Instrument value is unknown: the
// fluent methods of Options reject it (see New).
const (
	// Credit is credit: credit-card plans.
	Credit Instrument = iota + 1
	// Debit is debit: debit-card plans.
	Debit
	// Cardless is cardless: cardless plans.
	Cardless
)

// unknownPlan and unknownGroup are the keys of unknown Plan and Instrument
// values; neither is a wire key.
const (
	unknownPlan  = "unknownPlan"
	unknownGroup = "unknownGroup"
)

// Key returns the wire key of p ("standardEmi", "lowCostEmi", "noCostEmi").
func (p Plan) Key() string {
	switch p {
	case Standard:
		return standardKey
	case LowCost:
		return lowCostKey
	case NoCost:
		return noCostKey
	}
	return unknownPlan
}

// String returns the wire key of p.
func (p Plan) String() string { return p.Key() }

// goName spells p as Go code names it: "NoCost", or "Plan(9)" when unknown.
func (p Plan) goName() string {
	switch p {
	case Standard:
		return "Standard"
	case LowCost:
		return "LowCost"
	case NoCost:
		return "NoCost"
	}
	return "Plan(" + strconv.Itoa(int(p)) + ")"
}

// Key returns the wire key of in ("credit", "debit", "cardless").
func (in Instrument) Key() string {
	switch in {
	case Credit:
		return creditKey
	case Debit:
		return debitKey
	case Cardless:
		return cardlessKey
	}
	return unknownGroup
}

// String returns the wire key of in.
func (in Instrument) String() string { return in.Key() }

// goName spells in as Go code names it: "Credit", or "Instrument(7)" when
// unknown.
func (in Instrument) goName() string {
	switch in {
	case Credit:
		return "Credit"
	case Debit:
		return "Debit"
	case Cardless:
		return "Cardless"
	}
	return "Instrument(" + strconv.Itoa(int(in)) + ")"
}

// sub returns the address of the field of o that holds plan p, or nil for
// an unknown p.
func (o *Options) sub(p Plan) **SubFilter {
	switch p {
	case Standard:
		return &o.StandardEMI
	case LowCost:
		return &o.LowCostEMI
	case NoCost:
		return &o.NoCostEMI
	}
	return nil
}

// group returns the address of the field of s that holds group in, or nil
// for an unknown in.
func (s *SubFilter) group(in Instrument) **Group {
	switch in {
	case Credit:
		return &s.Credit
	case Debit:
		return &s.Debit
	case Cardless:
		return &s.Cardless
	}
	return nil
}
