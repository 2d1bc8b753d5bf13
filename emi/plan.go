package emi

import "strconv"

// Plan names one of the three EMI plan types of emiOptions, for the fluent
// methods of Options. Any other value is unknown: the methods reject it.
type Plan int

// The EMI plan types.
const (
	// Standard is standardEmi: standard EMI plans.
	Standard Plan = iota + 1
	// LowCost is lowCostEmi: low cost EMI plans.
	LowCost
	// NoCost is noCostEmi: no cost EMI plans.
	NoCost
)

// Instrument names one of the groups of a [SubFilter], for the fluent
// methods of Options. Any other value is unknown: the methods reject it.
type Instrument int

// The groups of a SubFilter.
const (
	// Credit is credit: credit-card plans.
	Credit Instrument = iota + 1
	// Debit is debit: debit-card plans.
	Debit
	// Cardless is cardless: cardless plans.
	Cardless
)

// The wire keys and Go names of the plans and instruments, by value (0 and
// out of range: unknown).
var (
	planKeys        = [...]string{"unknownPlan", standardKey, lowCostKey, noCostKey}
	planNames       = [...]string{"", "Standard", "LowCost", "NoCost"}
	instrumentKeys  = [...]string{"unknownGroup", creditKey, debitKey, cardlessKey}
	instrumentNames = [...]string{"", "Credit", "Debit", "Cardless"}
)

// Key returns the wire key of p ("standardEmi", "lowCostEmi", "noCostEmi"),
// or "unknownPlan".
func (p Plan) Key() string { return planKeys[known(int(p))] }

// String returns the wire key of p.
func (p Plan) String() string { return p.Key() }

// goName spells p as Go code names it: "NoCost", or "Plan(9)" when unknown.
func (p Plan) goName() string { return goName(planNames[known(int(p))], "Plan", int(p)) }

// Key returns the wire key of in ("credit", "debit", "cardless"), or
// "unknownGroup".
func (in Instrument) Key() string { return instrumentKeys[known(int(in))] }

// String returns the wire key of in.
func (in Instrument) String() string { return in.Key() }

// goName spells in as Go code names it: "Credit", or "Instrument(7)".
func (in Instrument) goName() string {
	return goName(instrumentNames[known(int(in))], "Instrument", int(in))
}

// known returns v when it is 1, 2 or 3, else 0 (unknown).
func known(v int) int {
	if v < 1 || v > 3 {
		return 0
	}
	return v
}

// goName returns name, or the conversion type(v) when name is "".
func goName(name, typ string, v int) string {
	if name == "" {
		return typ + "(" + strconv.Itoa(v) + ")"
	}
	return name
}

// sub returns the address of the field of o that holds plan p, or nil for
// an unknown p.
func (o *Options) sub(p Plan) **SubFilter {
	return [...]**SubFilter{nil, &o.StandardEMI, &o.LowCostEMI, &o.NoCostEMI}[known(int(p))]
}

// group returns the address of the field of s that holds group in, or nil
// for an unknown in.
func (s *SubFilter) group(in Instrument) **Group {
	return [...]**Group{nil, &s.Credit, &s.Debit, &s.Cardless}[known(int(in))]
}
