package emi

import (
	"reflect"
	"strconv"

	"github.com/payorch/checkout-go/internal/tagjson"
)

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

// Instrument names one of the groups of an EmiSubFilter, for the fluent
// methods of Options.
type Instrument int

// The groups of an EmiSubFilter. Any other Instrument value is unknown: the
// fluent methods of Options reject it (see New).
const (
	// Credit is credit: credit-card plans.
	Credit Instrument = iota + 1
	// Debit is debit: debit-card plans.
	Debit
	// Cardless is cardless: cardless plans.
	Cardless
)

// choice is what a Plan or an Instrument stands for: the Go name of its
// constant, and the field that holds it in Options or in a SubFilter,
// whose json tag gives its wire key.
type choice struct{ name, field string }

var (
	plans = map[Plan]choice{
		Standard: {"Standard", "StandardEMI"}, LowCost: {"LowCost", "LowCostEMI"}, NoCost: {"NoCost", "NoCostEMI"},
	}
	instruments = map[Instrument]choice{
		Credit: {"Credit", "Credit"}, Debit: {"Debit", "Debit"}, Cardless: {"Cardless", "Cardless"},
	}
)

// unknownPlan and unknownGroup are the keys of unknown Plan and Instrument
// values; neither is a wire key.
const (
	unknownPlan  = "unknownPlan"
	unknownGroup = "unknownGroup"
)

// Key returns the wire key of p ("standardEmi", "lowCostEmi", "noCostEmi").
func (p Plan) Key() string { return keyOf(optionsObject, plans, p, unknownPlan) }

// String returns the wire key of p.
func (p Plan) String() string { return p.Key() }

// goName spells p as Go code names it: "NoCost", or "Plan(9)" when unknown.
func (p Plan) goName() string { return goNameOf(plans, p, "Plan") }

// Key returns the wire key of in ("credit", "debit", "cardless").
func (in Instrument) Key() string { return keyOf(subFilterObject, instruments, in, unknownGroup) }

// String returns the wire key of in.
func (in Instrument) String() string { return in.Key() }

// goName spells in as Go code names it: "Credit", or "Instrument(7)" when
// unknown.
func (in Instrument) goName() string { return goNameOf(instruments, in, "Instrument") }

// sub returns the address of the field of o that holds plan p, or nil for
// an unknown p.
func (o *Options) sub(p Plan) **SubFilter { return fieldOf[*SubFilter](o, plans, p) }

// group returns the address of the field of s that holds group in, or nil
// for an unknown in.
func (s *SubFilter) group(in Instrument) **Group { return fieldOf[*Group](s, instruments, in) }

func keyOf[E comparable](o *tagjson.Object, m map[E]choice, e E, unknown string) string {
	if c, ok := m[e]; ok {
		return o.Key(c.field)
	}
	return unknown
}

func goNameOf[E ~int](m map[E]choice, e E, typ string) string {
	if c, ok := m[e]; ok {
		return c.name
	}
	return typ + "(" + strconv.Itoa(int(e)) + ")"
}

func fieldOf[F any, E comparable, S any](s *S, m map[E]choice, e E) *F {
	c, ok := m[e]
	if !ok {
		return nil
	}
	return reflect.ValueOf(s).Elem().FieldByName(c.field).Addr().Interface().(*F)
}
