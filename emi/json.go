package emi

import (
	"github.com/payorch/checkout-go/internal/valid"
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
	var all []string
	for _, l := range [][]string{optionsKeys, subFilterKeys, groupKeys, filterKeys, filterAliases, issuerFilterKeys} {
		for _, k := range l {
			if !contains(all, k) {
				all = append(all, k)
			}
		}
	}
	return all
}

func isOneOf(keys []string) func(string) bool {
	return func(k string) bool { return contains(keys, k) }
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
		b = appendKey(b, s.key, first)
		first = false
		if b, err = s.sub.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if o.ShowOnlyEMI != nil {
		b = appendKey(b, "showOnlyEmi", first)
		first = false
		b = appendBool(b, *o.ShowOnlyEMI)
	}
	if b, err = appendExtra(b, o.Extra, first, isOneOf(optionsKeys)); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes s with the service's keys.
func (s SubFilter) MarshalJSON() ([]byte, error) { return s.appendJSON(nil) }

func (s *SubFilter) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = appendKey(append(b, '{'), "enable", true)
	b = appendBool(b, s.Enable)
	for _, g := range []struct {
		key   string
		group *Group
	}{{"credit", s.Credit}, {"debit", s.Debit}, {"cardless", s.Cardless}} {
		if g.group == nil {
			continue
		}
		b = appendKey(b, g.key, false)
		if b, err = g.group.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = appendExtra(b, s.Extra, false, isOneOf(subFilterKeys)); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes g with the service's keys; filters is sent when it is
// non-nil (an empty decoded list is sent back as []).
func (g Group) MarshalJSON() ([]byte, error) { return g.appendJSON(nil) }

func (g *Group) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = appendKey(append(b, '{'), "enable", true)
	b = appendBool(b, g.Enable)
	if g.Filters != nil {
		b = appendKey(b, "filters", false)
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
	if b, err = appendExtra(b, g.Extra, false, isOneOf(groupKeys)); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes f with the service's keys (issuerFilter, singular).
func (f Filter) MarshalJSON() ([]byte, error) { return f.appendJSON(nil) }

func (f *Filter) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = appendKey(append(b, '{'), "enable", true)
	b = appendBool(b, f.Enable)
	if f.PaymentMethodType != "" {
		b = appendKey(b, "paymentMethodType", false)
		b = appendString(b, string(f.PaymentMethodType))
	}
	if f.PaymentMethod != "" {
		b = appendKey(b, "paymentMethod", false)
		b = appendString(b, f.PaymentMethod)
	}
	if f.IssuerFilter != nil {
		b = appendKey(b, "issuerFilter", false)
		if b, err = f.IssuerFilter.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = appendExtra(b, f.Extra, false, isOneOf(filterAllKeys)); err != nil {
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
		b = appendKey(b, "issuers", first)
		first = false
		b = appendStrings(b, f.Issuers)
	}
	if f.Tenures != nil {
		b = appendKey(b, "tenures", first)
		first = false
		b = append(b, '[')
		for i, t := range f.Tenures {
			if i > 0 {
				b = append(b, ',')
			}
			if t.malformed {
				b = appendString(b, t.raw)
			} else {
				b = append(b, '"')
				b = t.appendText(b)
				b = append(b, '"')
			}
		}
		b = append(b, ']')
	}
	b = appendKey(b, "enable", first)
	b = appendBool(b, f.Enable)
	b, err := appendExtra(b, f.Extra, false, isOneOf(issuerFilterKeys))
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
	if isNull(data) {
		return nil
	}
	v, err := decodeOptions(data, "emiOptions")
	if err != nil {
		return err
	}
	*o = *v
	return nil
}

func decodeOptions(data []byte, path string) (*Options, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Options{}
	for _, s := range []struct {
		key string
		dst **SubFilter
	}{{"standardEmi", &out.StandardEMI}, {"lowCostEmi", &out.LowCostEMI}, {"noCostEmi", &out.NoCostEMI}} {
		if raw, ok := obj.take(s.key); ok && obj.err == nil {
			*s.dst, obj.err = decodeSubFilter(raw, valid.Join(path, s.key))
		}
	}
	out.ShowOnlyEMI = obj.optionalBool("showOnlyEmi")
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes an EmiSubFilter (see Options.UnmarshalJSON); paths
// in errors are relative to the sub filter.
func (s *SubFilter) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeSubFilter(data, "")
	if err != nil {
		return err
	}
	*s = *v
	return nil
}

func decodeSubFilter(data []byte, path string) (*SubFilter, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &SubFilter{Enable: obj.requiredBool("enable")}
	for _, g := range []struct {
		key string
		dst **Group
	}{{"credit", &out.Credit}, {"debit", &out.Debit}, {"cardless", &out.Cardless}} {
		if raw, ok := obj.take(g.key); ok && obj.err == nil {
			*g.dst, obj.err = decodeGroup(raw, valid.Join(path, g.key))
		}
	}
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes a credit, debit or cardless group (see
// Options.UnmarshalJSON); paths in errors are relative to the group.
func (g *Group) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeGroup(data, "")
	if err != nil {
		return err
	}
	*g = *v
	return nil
}

func decodeGroup(data []byte, path string) (*Group, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Group{Enable: obj.requiredBool("enable")}
	if raw, ok := obj.take("filters"); ok {
		elems := obj.array("filters", raw)
		if elems != nil {
			out.Filters = make([]Filter, len(elems))
		}
		for i, e := range elems {
			if obj.err != nil {
				break
			}
			var f *Filter
			if f, obj.err = decodeFilter(e, valid.Index(valid.Join(path, "filters"), i)); f != nil {
				out.Filters[i] = *f
			}
		}
	}
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes an emiFilter, accepting issuerFilters for
// issuerFilter (see Options.UnmarshalJSON); paths in errors are relative to
// the filter.
func (f *Filter) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeFilter(data, "")
	if err != nil {
		return err
	}
	*f = *v
	return nil
}

func decodeFilter(data []byte, path string) (*Filter, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Filter{Enable: obj.requiredBool("enable")}
	out.PaymentMethodType = MethodType(obj.optionalString("paymentMethodType"))
	out.PaymentMethod = obj.optionalString("paymentMethod")
	if raw, ok := obj.takeAlias("issuerFilter", "issuerFilters"); ok && obj.err == nil {
		out.IssuerFilter, obj.err = decodeIssuerFilter(raw, valid.Join(path, "issuerFilter"))
	}
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes an issuerFilter (see Options.UnmarshalJSON). A
// tenure that is not a well-formed range is kept for Validate to report.
func (f *IssuerFilter) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeIssuerFilter(data, "")
	if err != nil {
		return err
	}
	*f = *v
	return nil
}

func decodeIssuerFilter(data []byte, path string) (*IssuerFilter, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &IssuerFilter{}
	if raw, ok := obj.take("issuers"); ok {
		out.Issuers = obj.strings("issuers", raw)
	}
	if raw, ok := obj.take("tenures"); ok {
		list := obj.strings("tenures", raw)
		if list != nil {
			out.Tenures = make([]TenureRange, len(list))
			for i, s := range list {
				_ = out.Tenures[i].UnmarshalText([]byte(s))
			}
		}
	}
	out.Enable = obj.requiredBool("enable")
	out.Extra = obj.extra()
	return out, obj.err
}
