package emi

import (
	"encoding/json"
	"slices"

	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

// The wire keys of emiOptions, as the service spells them (case
// sensitive). The json tags of the types say the same; a test checks that
// every problem path names one of them.
const (
	rootPath         = "emiOptions" // the key of the options in payment_filter, where paths start
	standardKey      = "standardEmi"
	lowCostKey       = "lowCostEmi"
	noCostKey        = "noCostEmi"
	showOnlyKey      = "showOnlyEmi"
	enableKey        = "enable"
	creditKey        = "credit"
	debitKey         = "debit"
	cardlessKey      = "cardless"
	filtersKey       = "filters"
	methodTypeKey    = "paymentMethodType"
	methodKey        = "paymentMethod"
	issuerFilterKey  = "issuerFilter"
	issuerFiltersKey = "issuerFilters" // the spelling of the service's field table, accepted on decode
	issuersKey       = "issuers"
	tenuresKey       = "tenures"
)

// The keys of each object, with the other spelling decoding accepts: what
// Extra may not set, and what a mis-cased or misplaced Extra key is
// compared with.
func optionsKeys() []string   { return []string{standardKey, lowCostKey, noCostKey, showOnlyKey} }
func subFilterKeys() []string { return []string{enableKey, creditKey, debitKey, cardlessKey} }
func groupKeys() []string     { return []string{enableKey, filtersKey} }
func filterKeys() []string {
	return []string{enableKey, methodTypeKey, methodKey, issuerFilterKey, issuerFiltersKey}
}
func issuerKeys() []string { return []string{issuersKey, tenuresKey, enableKey} }

// allKeys are the keys of every object of emiOptions.
func allKeys() []string {
	return slices.Concat(optionsKeys(), subFilterKeys(), groupKeys(), filterKeys(), issuerKeys())
}

// MarshalJSON encodes o with the service's keys: the plan types that are
// set, showOnlyEmi when set, then Extra.
func (o Options) MarshalJSON() ([]byte, error) {
	var b []byte
	var err error
	if w, ok := o.wire(); ok {
		b, err = json.Marshal(&w)
	} else {
		type plain Options
		b, err = json.Marshal((*plain)(&o))
	}
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, o.Extra, optionsKeys())
}

// UnmarshalJSON decodes emiOptions. It is strict about what it models
// (case-exact keys, JSON types, required enable flags) and keeps every
// other key in Extra. Errors are a *[validation.Error] at the JSON path
// from the emiOptions key; null leaves o unchanged, and so does an error.
func (o *Options) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(o, data, rootPath, (*Options).decode)
}

func (o *Options) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	o.StandardEMI = jsonobject.Nested(obj.Take(standardKey), (*SubFilter).decode)
	o.LowCostEMI = jsonobject.Nested(obj.Take(lowCostKey), (*SubFilter).decode)
	o.NoCostEMI = jsonobject.Nested(obj.Take(noCostKey), (*SubFilter).decode)
	o.ShowOnlyEMI = jsonobject.Value[*bool](obj.Take(showOnlyKey), jsonobject.ABoolean)
	o.Extra = obj.Rest()
}

// MarshalJSON encodes s with the service's keys, then Extra.
func (s SubFilter) MarshalJSON() ([]byte, error) {
	type plain SubFilter
	b, err := json.Marshal((*plain)(&s))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, s.Extra, subFilterKeys())
}

// UnmarshalJSON decodes an EMI plan type (see [Options.UnmarshalJSON]);
// paths in errors are relative to it.
func (s *SubFilter) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(s, data, "", (*SubFilter).decode)
}

func (s *SubFilter) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	s.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	s.Credit = jsonobject.Nested(obj.Take(creditKey), (*Group).decode)
	s.Debit = jsonobject.Nested(obj.Take(debitKey), (*Group).decode)
	s.Cardless = jsonobject.Nested(obj.Take(cardlessKey), (*Group).decode)
	s.Extra = obj.Rest()
}

// MarshalJSON encodes g with the service's keys, then Extra; filters is
// sent when it is non-nil (an empty decoded list is sent back as []).
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group
	b, err := json.Marshal((*plain)(&g))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, g.Extra, groupKeys())
}

// UnmarshalJSON decodes a credit, debit or cardless group (see
// [Options.UnmarshalJSON]); paths in errors are relative to the group.
func (g *Group) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(g, data, "", (*Group).decode)
}

func (g *Group) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	g.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	g.Filters = jsonobject.Objects(obj.Take(filtersKey), (*Filter).decode)
	g.Extra = obj.Rest()
}

// MarshalJSON encodes f with the service's keys (issuerFilter, singular),
// then Extra.
func (f Filter) MarshalJSON() ([]byte, error) {
	type plain Filter
	b, err := json.Marshal((*plain)(&f))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, f.Extra, filterKeys())
}

// UnmarshalJSON decodes an emiFilter, accepting issuerFilters for
// issuerFilter (both in one object is an error); paths in errors are
// relative to the filter.
func (f *Filter) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(f, data, "", (*Filter).decode)
}

func (f *Filter) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	f.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	f.PaymentMethodType = jsonobject.Text[MethodType](obj.Take(methodTypeKey))
	f.PaymentMethod = jsonobject.Text[string](obj.Take(methodKey))
	f.IssuerFilter = jsonobject.Nested(obj.Either(issuerFilterKey, issuerFiltersKey), (*IssuerFilter).decode)
	f.Extra = obj.Rest()
}

// MarshalJSON encodes f with the service's keys, then Extra; issuers and
// tenures are sent when non-nil.
func (f IssuerFilter) MarshalJSON() ([]byte, error) {
	type plain IssuerFilter
	b, err := json.Marshal((*plain)(&f))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, f.Extra, issuerKeys())
}

// UnmarshalJSON decodes an issuerFilter (see [Options.UnmarshalJSON]). A
// tenure that is not a well-formed range is kept for Validate to report.
func (f *IssuerFilter) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(f, data, "", (*IssuerFilter).decode)
}

func (f *IssuerFilter) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	f.Issuers = jsonobject.List[string](obj.Take(issuersKey))
	f.Tenures = jsonobject.List[TenureRange](obj.Take(tenuresKey))
	f.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	f.Extra = obj.Rest()
}

// The wire types are Options and the types below it as encoding/json
// writes them, without their MarshalJSON methods (the same fields, tags and
// order): while no object below the top has Extra keys, which only those
// methods add, Options.MarshalJSON encodes them in one encoding/json pass.
// Through the methods, encoding/json would scan the output of each level
// once more for every level above it (a test checks that both ways give
// the same bytes, and that the tags agree).
type (
	optionsWire struct {
		StandardEMI *subFilterWire `json:"standardEmi,omitzero"`
		LowCostEMI  *subFilterWire `json:"lowCostEmi,omitzero"`
		NoCostEMI   *subFilterWire `json:"noCostEmi,omitzero"`
		ShowOnlyEMI *bool          `json:"showOnlyEmi,omitzero"`
	}
	subFilterWire struct {
		Enable   bool       `json:"enable"`
		Credit   *groupWire `json:"credit,omitzero"`
		Debit    *groupWire `json:"debit,omitzero"`
		Cardless *groupWire `json:"cardless,omitzero"`
	}
	groupWire struct {
		Enable  bool         `json:"enable"`
		Filters []filterWire `json:"filters,omitzero"`
	}
	filterWire struct {
		Enable            bool              `json:"enable"`
		PaymentMethodType MethodType        `json:"paymentMethodType,omitzero"`
		PaymentMethod     string            `json:"paymentMethod,omitzero"`
		IssuerFilter      *issuerFilterWire `json:"issuerFilter,omitzero"`
	}
	// issuerFilterWire has IssuerFilter's fields: a conversion.
	issuerFilterWire IssuerFilter
)

// wire returns o as its wire type; ok is false when an object below o has
// Extra keys.
func (o *Options) wire() (w optionsWire, ok bool) {
	w.ShowOnlyEMI = o.ShowOnlyEMI
	return w, o.StandardEMI.wire(&w.StandardEMI) && o.LowCostEMI.wire(&w.LowCostEMI) && o.NoCostEMI.wire(&w.NoCostEMI)
}

// wire sets *dst to s as its wire type (nil for nil) and reports whether
// neither s nor an object below it has Extra keys.
func (s *SubFilter) wire(dst **subFilterWire) bool {
	if s == nil {
		return true
	}
	if len(s.Extra) > 0 {
		return false
	}
	w := &subFilterWire{Enable: s.Enable}
	*dst = w
	return s.Credit.wire(&w.Credit) && s.Debit.wire(&w.Debit) && s.Cardless.wire(&w.Cardless)
}

// wire is SubFilter.wire for a group.
func (g *Group) wire(dst **groupWire) bool {
	if g == nil {
		return true
	}
	if len(g.Extra) > 0 {
		return false
	}
	w := &groupWire{Enable: g.Enable}
	*dst = w
	if g.Filters == nil {
		return true
	}
	w.Filters = make([]filterWire, len(g.Filters))
	for i, f := range g.Filters {
		if len(f.Extra) > 0 || f.IssuerFilter != nil && len(f.IssuerFilter.Extra) > 0 {
			return false
		}
		w.Filters[i] = filterWire{Enable: f.Enable, PaymentMethodType: f.PaymentMethodType,
			PaymentMethod: f.PaymentMethod, IssuerFilter: (*issuerFilterWire)(f.IssuerFilter)}
	}
	return true
}
