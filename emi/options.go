package emi

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/payorch/checkout-go/validation"
)

// Options is payment_filter.emiOptions: which EMI plans the checkout
// offers. A plan type left nil is not sent and keeps the service's default.
// Reading it from several goroutines is safe; the fluent methods change it,
// so use [Options.Clone] to give each goroutine its own. (The method that
// sets showOnlyEmi is OnlyEMI: the field ShowOnlyEMI takes the name.)
type Options struct {
	// StandardEMI is standardEmi: standard EMI plans.
	StandardEMI *SubFilter `json:"standardEmi,omitempty"`
	// LowCostEMI is lowCostEmi: low cost EMI plans.
	LowCostEMI *SubFilter `json:"lowCostEmi,omitempty"`
	// NoCostEMI is noCostEmi: no cost EMI plans.
	NoCostEMI *SubFilter `json:"noCostEmi,omitempty"`
	// ShowOnlyEMI is showOnlyEmi: true makes EMI the only visible instrument.
	ShowOnlyEMI *bool `json:"showOnlyEmi,omitempty"`

	// problems are the fluent calls that could not be carried out, in call
	// order.
	problems []validation.Problem
}

// Clone returns a deep copy of o (nil for nil), with the calls the fluent
// methods could not carry out: half-built options to extend in another
// direction, or to hand to another goroutine.
func (o *Options) Clone() *Options {
	if o == nil {
		return nil
	}
	c := *o
	c.StandardEMI, c.LowCostEMI, c.NoCostEMI = o.StandardEMI.clone(), o.LowCostEMI.clone(), o.NoCostEMI.clone()
	if o.ShowOnlyEMI != nil {
		c.ShowOnlyEMI = new(*o.ShowOnlyEMI)
	}
	c.problems = slices.Clone(o.problems)
	return &c
}

// SubFilter is an EMI plan type: the standardEmi, lowCostEmi or noCostEmi
// object.
type SubFilter struct {
	// Enable is enable (required): enables or disables this EMI type.
	Enable bool `json:"enable"`
	// Credit is credit: credit-card plans within this EMI type.
	Credit *Group `json:"credit,omitempty"`
	// Debit is debit: debit-card plans within this EMI type.
	Debit *Group `json:"debit,omitempty"`
	// Cardless is cardless: cardless plans within this EMI type.
	Cardless *Group `json:"cardless,omitempty"`
}

func (s *SubFilter) clone() *SubFilter {
	if s == nil {
		return nil
	}
	c := *s
	c.Credit, c.Debit, c.Cardless = s.Credit.clone(), s.Debit.clone(), s.Cardless.clone()
	return &c
}

// Group is the credit, debit or cardless object of an EMI plan type.
type Group struct {
	// Enable is enable (required): enables or disables this group.
	Enable bool `json:"enable"`
	// Filters is filters: refinements (emiFilter objects).
	Filters []Filter `json:"filters,omitzero"`
}

func (g *Group) clone() *Group {
	if g == nil {
		return nil
	}
	c := *g
	if g.Filters != nil {
		c.Filters = make([]Filter, len(g.Filters))
		for i := range g.Filters {
			c.Filters[i] = g.Filters[i].clone()
		}
	}
	return &c
}

// Filter is an emiFilter: one refinement inside a Group, matching plans by
// payment method and issuer.
type Filter struct {
	// Enable is enable (required): enables or disables the plans matched.
	Enable bool `json:"enable"`
	// PaymentMethodType is paymentMethodType (optional, case sensitive):
	// a method type of package paymentfilter's vocabulary, such as "CARD"
	// ([github.com/payorch/checkout-go/paymentfilter.Card]), which owns it
	// and checks it when it validates the filter holding these options.
	PaymentMethodType string `json:"paymentMethodType,omitempty"`
	// PaymentMethod is paymentMethod (optional): the payment method whose
	// plans are matched, a single string as the samples send it.
	PaymentMethod string `json:"paymentMethod,omitempty"`
	// IssuerFilter is issuerFilter (optional).
	IssuerFilter *IssuerFilter `json:"issuerFilter,omitempty"`
}

// UnmarshalJSON decodes an emiFilter, taking issuerFilters, the spelling
// of the service's field table, for issuerFilter; both is an error.
func (f *Filter) UnmarshalJSON(data []byte) error {
	if f == nil {
		return errors.New("checkout: decode EMI filter: nil pointer")
	}
	type plain Filter
	var v struct {
		plain
		IssuerFilters *IssuerFilter `json:"issuerFilters"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.IssuerFilters != nil {
		if v.IssuerFilter != nil {
			return errors.New("checkout: decode EMI filter: both issuerFilter and issuerFilters are given")
		}
		v.IssuerFilter = v.IssuerFilters
	}
	*f = Filter(v.plain)
	return nil
}

func (f *Filter) clone() Filter {
	c := *f
	if f.IssuerFilter != nil {
		i := *f.IssuerFilter
		i.Issuers, i.Tenures = slices.Clone(i.Issuers), slices.Clone(i.Tenures)
		c.IssuerFilter = &i
	}
	return c
}

// IssuerFilter is the issuerFilter object of an emiFilter: the plans of
// some issuers, or of some of their tenures.
type IssuerFilter struct {
	// Issuers is issuers: issuer codes, written SVC_<BANK> in the service's
	// documents; deployments use their own prefix, such as JP_<BANK>.
	Issuers []string `json:"issuers,omitzero"`
	// Tenures is tenures: tenure ranges in months, written "<from>::<to>".
	Tenures []TenureRange `json:"tenures,omitzero"`
	// Enable is enable (required): false removes the matched plans.
	Enable bool `json:"enable"`
}
