package emi

import (
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
)

// The keys each object models, for encoding Extra and for Validate's hints.
var (
	optionsKeys      = []string{"standardEmi", "lowCostEmi", "noCostEmi", "showOnlyEmi"}
	subFilterKeys    = []string{"enable", "credit", "debit", "cardless"}
	groupKeys        = []string{"enable", "filters"}
	filterKeys       = []string{"enable", "paymentMethodType", "paymentMethod", "issuerFilter"}
	filterAliases    = []string{"issuerFilters"}
	filterAllKeys    = []string{"enable", "paymentMethodType", "paymentMethod", "issuerFilter", "issuerFilters"}
	issuerFilterKeys = []string{"issuers", "tenures", "enable"}
)

// allKeys returns every key the emiOptions objects use, including accepted
// alternative spellings, to recognise a misplaced one. (paymentfilter keeps
// its own copy of this list.)
func allKeys() []string {
	return wire.Union(optionsKeys, subFilterKeys, groupKeys, filterKeys, filterAliases, issuerFilterKeys)
}

// MarshalJSON encodes o with the service's keys: only the plan types that
// are set, then showOnlyEmi when set, then Extra.
func (o Options) MarshalJSON() ([]byte, error) {
	return o.AppendJSON(make([]byte, 0, 256))
}

// AppendJSON appends the JSON encoding of o (as MarshalJSON) to b, so that
// an enclosing encoder (paymentfilter) writes it without another buffer; a
// nil o appends null.
func (o *Options) AppendJSON(b []byte) ([]byte, error) {
	if o == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	first := true
	for _, s := range []struct {
		key string
		sub *SubFilter
	}{{"standardEmi", o.StandardEMI}, {"lowCostEmi", o.LowCostEMI}, {"noCostEmi", o.NoCostEMI}} {
		if s.sub == nil {
			continue
		}
		b = wire.AppendKey(b, s.key, first)
		first = false
		if b, err = s.sub.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if o.ShowOnlyEMI != nil {
		b = wire.AppendKey(b, "showOnlyEmi", first)
		first = false
		b = wire.AppendBool(b, *o.ShowOnlyEMI)
	}
	if b, err = wire.AppendExtra(b, o.Extra, first, optionsKeys); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes s with the service's keys.
func (s SubFilter) MarshalJSON() ([]byte, error) { return s.appendJSON(nil) }

func (s *SubFilter) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = wire.AppendKey(append(b, '{'), "enable", true)
	b = wire.AppendBool(b, s.Enable)
	for _, g := range []struct {
		key   string
		group *Group
	}{{"credit", s.Credit}, {"debit", s.Debit}, {"cardless", s.Cardless}} {
		if g.group == nil {
			continue
		}
		b = wire.AppendKey(b, g.key, false)
		if b, err = g.group.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = wire.AppendExtra(b, s.Extra, false, subFilterKeys); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes g with the service's keys; filters is sent when it is
// non-nil (an empty decoded list is sent back as []).
func (g Group) MarshalJSON() ([]byte, error) { return g.appendJSON(nil) }

func (g *Group) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = wire.AppendKey(append(b, '{'), "enable", true)
	b = wire.AppendBool(b, g.Enable)
	if g.Filters != nil {
		b = wire.AppendKey(b, "filters", false)
		b = append(b, '[')
		for i := range g.Filters {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = g.Filters[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if b, err = wire.AppendExtra(b, g.Extra, false, groupKeys); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes f with the service's keys (issuerFilter, singular).
func (f Filter) MarshalJSON() ([]byte, error) { return f.appendJSON(nil) }

func (f *Filter) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = wire.AppendKey(append(b, '{'), "enable", true)
	b = wire.AppendBool(b, f.Enable)
	if f.PaymentMethodType != "" {
		b = wire.AppendKey(b, "paymentMethodType", false)
		b = wire.AppendString(b, string(f.PaymentMethodType))
	}
	if f.PaymentMethod != "" {
		b = wire.AppendKey(b, "paymentMethod", false)
		b = wire.AppendString(b, f.PaymentMethod)
	}
	if f.IssuerFilter != nil {
		b = wire.AppendKey(b, "issuerFilter", false)
		if b, err = f.IssuerFilter.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = wire.AppendExtra(b, f.Extra, false, filterAllKeys); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes f with the service's keys; issuers and tenures are
// sent when non-nil.
func (f IssuerFilter) MarshalJSON() ([]byte, error) { return f.appendJSON(nil) }

func (f *IssuerFilter) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	first := true
	if f.Issuers != nil {
		b = wire.AppendKey(b, "issuers", first)
		first = false
		b = wire.AppendStrings(b, f.Issuers)
	}
	if f.Tenures != nil {
		b = wire.AppendKey(b, "tenures", first)
		first = false
		b = append(b, '[')
		for i, t := range f.Tenures {
			if i > 0 {
				b = append(b, ',')
			}
			if t.malformed {
				b = wire.AppendString(b, t.raw)
			} else {
				b = append(b, '"')
				b = t.appendText(b)
				b = append(b, '"')
			}
		}
		b = append(b, ']')
	}
	b = wire.AppendKey(b, "enable", first)
	b = wire.AppendBool(b, f.Enable)
	b, err := wire.AppendExtra(b, f.Extra, false, issuerFilterKeys)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes emiOptions. It is strict about what it models
// (case-exact keys, JSON types, required enable flags) and keeps every other
// key in Extra. Errors are *ValidationError naming the path from
// "emiOptions". null leaves o unchanged.
func (o *Options) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(o, data, "emiOptions", decodeOptions)
}

func decodeOptions(data []byte, path string) (*Options, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Options{}
	out.StandardEMI = wire.Child(obj, "standardEmi", decodeSubFilter)
	out.LowCostEMI = wire.Child(obj, "lowCostEmi", decodeSubFilter)
	out.NoCostEMI = wire.Child(obj, "noCostEmi", decodeSubFilter)
	out.ShowOnlyEMI = obj.OptionalBool("showOnlyEmi")
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes an EmiSubFilter (see Options.UnmarshalJSON); paths
// in errors are relative to the sub filter.
func (s *SubFilter) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(s, data, "", decodeSubFilter)
}

func decodeSubFilter(data []byte, path string) (*SubFilter, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &SubFilter{Enable: obj.RequiredBool("enable")}
	out.Credit = wire.Child(obj, "credit", decodeGroup)
	out.Debit = wire.Child(obj, "debit", decodeGroup)
	out.Cardless = wire.Child(obj, "cardless", decodeGroup)
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes a credit, debit or cardless group (see
// Options.UnmarshalJSON); paths in errors are relative to the group.
func (g *Group) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(g, data, "", decodeGroup)
}

func decodeGroup(data []byte, path string) (*Group, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Group{Enable: obj.RequiredBool("enable")}
	out.Filters = wire.List(obj, "filters", decodeFilter)
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes an emiFilter, accepting issuerFilters for
// issuerFilter (see Options.UnmarshalJSON); paths in errors are relative to
// the filter.
func (f *Filter) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(f, data, "", decodeFilter)
}

func decodeFilter(data []byte, path string) (*Filter, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Filter{Enable: obj.RequiredBool("enable")}
	out.PaymentMethodType = MethodType(obj.OptionalString("paymentMethodType"))
	out.PaymentMethod = obj.OptionalString("paymentMethod")
	if raw, ok := obj.TakeAlias("issuerFilter", "issuerFilters"); ok && obj.Err == nil {
		out.IssuerFilter, obj.Err = decodeIssuerFilter(raw, valid.Join(path, "issuerFilter"))
	}
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes an issuerFilter (see Options.UnmarshalJSON). A
// tenure that is not a well-formed range is kept for Validate to report.
func (f *IssuerFilter) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(f, data, "", decodeIssuerFilter)
}

func decodeIssuerFilter(data []byte, path string) (*IssuerFilter, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &IssuerFilter{}
	if raw, ok := obj.Take("issuers"); ok {
		out.Issuers = obj.Strings("issuers", raw)
	}
	if raw, ok := obj.Take("tenures"); ok {
		list := obj.Strings("tenures", raw)
		if list != nil {
			out.Tenures = make([]TenureRange, len(list))
			for i, s := range list {
				_ = out.Tenures[i].UnmarshalText([]byte(s))
			}
		}
	}
	out.Enable = obj.RequiredBool("enable")
	out.Extra = obj.Extra()
	return out, obj.Err
}
