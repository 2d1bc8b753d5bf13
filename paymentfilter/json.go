package paymentfilter

import (
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/valid"
)

// The keys each object models, for encoding Extra and for Validate's hints.
var (
	filterKeys      = []string{"allowDefaultOptions", "options", "emiOptions"}
	optionKeys      = []string{"paymentMethodType", "enable", "paymentMethods", "cardFilters", "upiFilters"}
	cardFilterKeys  = []string{"enable", "cardBrands", "cardBins", "cardTypes", "cardSubTypes", "cardBanks"}
	cardFilterAlias = []string{"cardBrand", "cardBin", "cardType", "cardSubType", "cardBank"}
	cardFilterAll   = append(cardFilterKeys[:len(cardFilterKeys):len(cardFilterKeys)], cardFilterAlias...)
	upiFilterKeys   = []string{"upiType", "enable", "upiMethods"}
	// emiKeys are the keys of the emiOptions objects (package emi models
	// them), to name one put in an option or card filter by mistake.
	emiKeys = []string{"standardEmi", "lowCostEmi", "noCostEmi", "showOnlyEmi", "credit", "debit", "cardless",
		"filters", "paymentMethod", "issuerFilter", "issuerFilters", "issuers", "tenures"}
)

func isOneOf(keys []string) func(string) bool {
	return func(k string) bool { return contains(keys, k) }
}

// MarshalJSON encodes f with the service's exact keys: allowDefaultOptions
// and options always ([] when empty), emiOptions when set, then Extra. It is
// a hand-written encoder (see BenchmarkFilterMarshal); the output is what
// encoding/json would write for the same tree.
func (f Filter) MarshalJSON() ([]byte, error) {
	return f.AppendJSON(make([]byte, 0, f.sizeHint()))
}

// sizeHint guesses the encoded size of f from its strings and elements, so
// that MarshalJSON usually allocates once.
func (f *Filter) sizeHint() int {
	n := 64
	for i := range f.Options {
		o := &f.Options[i]
		n += 64 + listSize(o.PaymentMethods)
		for j := range o.CardFilters {
			c := &o.CardFilters[j]
			n += 96 + listSize(c.CardBrands) + listSize(c.CardSubTypes) + listSize(c.CardBanks) + 24*len(c.CardBins) + 12*len(c.CardTypes)
		}
		for j := range o.UPIFilters {
			n += 64 + listSize(o.UPIFilters[j].UPIMethods)
		}
	}
	if e := f.EMIOptions; e != nil {
		n += 64
		for _, s := range []*emi.SubFilter{e.StandardEMI, e.LowCostEMI, e.NoCostEMI} {
			if s == nil {
				continue
			}
			n += 32
			for _, g := range []*emi.Group{s.Credit, s.Debit, s.Cardless} {
				if g != nil {
					n += 48 + 160*len(g.Filters)
				}
			}
		}
	}
	return n
}

func listSize(l []string) int {
	n := 2
	for _, s := range l {
		n += len(s) + 3
	}
	return n
}

// AppendJSON appends the JSON encoding of f (as MarshalJSON) to b; a nil f
// appends null. An enclosing encoder that splices this output into its body
// avoids the re-scan encoding/json gives every MarshalJSON result (see
// BenchmarkFilterMarshalStdlib).
func (f *Filter) AppendJSON(b []byte) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = appendKey(append(b, '{'), "allowDefaultOptions", true)
	b = appendBool(b, f.AllowDefaultOptions)
	b = appendKey(b, "options", false)
	b = append(b, '[')
	for i := range f.Options {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = f.Options[i].appendJSON(b); err != nil {
			return nil, err
		}
	}
	b = append(b, ']')
	if f.EMIOptions != nil {
		b = appendKey(b, "emiOptions", false)
		if b, err = f.EMIOptions.AppendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = appendExtra(b, f.Extra, false, isOneOf(filterKeys)); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes o with the service's exact keys. Lists are sent when
// non-nil (an empty decoded list is sent back as []).
func (o Option) MarshalJSON() ([]byte, error) { return o.appendJSON(nil) }

func (o *Option) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = appendKey(append(b, '{'), "paymentMethodType", true)
	b = appendString(b, string(o.PaymentMethodType))
	b = appendKey(b, "enable", false)
	b = appendBool(b, o.Enable)
	if o.PaymentMethods != nil {
		b = appendKey(b, "paymentMethods", false)
		b = appendStrings(b, o.PaymentMethods)
	}
	if o.CardFilters != nil {
		b = appendKey(b, "cardFilters", false)
		b = append(b, '[')
		for i := range o.CardFilters {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = o.CardFilters[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if o.UPIFilters != nil {
		b = appendKey(b, "upiFilters", false)
		b = append(b, '[')
		for i := range o.UPIFilters {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = o.UPIFilters[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if b, err = appendExtra(b, o.Extra, false, isOneOf(optionKeys)); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes c with the plural keys the service accepts.
func (c CardFilter) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c *CardFilter) appendJSON(b []byte) ([]byte, error) {
	b = appendKey(append(b, '{'), "enable", true)
	b = appendBool(b, c.Enable)
	if c.CardBrands != nil {
		b = appendKey(b, "cardBrands", false)
		b = appendStrings(b, c.CardBrands)
	}
	if c.CardBins != nil {
		b = appendKey(b, "cardBins", false)
		b = append(b, '[')
		for i, r := range c.CardBins {
			if i > 0 {
				b = append(b, ',')
			}
			if r.malformed {
				b = appendString(b, r.raw)
			} else {
				// Escaped like any string: a hand-made range may hold
				// anything until Validate has looked at it.
				b = appendString(b, r.From+"::"+r.To)
			}
		}
		b = append(b, ']')
	}
	if c.CardTypes != nil {
		b = appendKey(b, "cardTypes", false)
		b = append(b, '[')
		for i, t := range c.CardTypes {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, string(t))
		}
		b = append(b, ']')
	}
	if c.CardSubTypes != nil {
		b = appendKey(b, "cardSubTypes", false)
		b = appendStrings(b, c.CardSubTypes)
	}
	if c.CardBanks != nil {
		b = appendKey(b, "cardBanks", false)
		b = appendStrings(b, c.CardBanks)
	}
	b, err := appendExtra(b, c.Extra, false, isOneOf(cardFilterAll))
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes u with the service's exact keys.
func (u UPIFilter) MarshalJSON() ([]byte, error) { return u.appendJSON(nil) }

func (u *UPIFilter) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	first := true
	if u.UPIType != "" {
		b = appendKey(b, "upiType", true)
		b = appendString(b, string(u.UPIType))
		first = false
	}
	b = appendKey(b, "enable", first)
	b = appendBool(b, u.Enable)
	if u.UPIMethods != nil {
		b = appendKey(b, "upiMethods", false)
		b = appendStrings(b, u.UPIMethods)
	}
	b, err := appendExtra(b, u.Extra, false, isOneOf(upiFilterKeys))
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes a payment_filter object. It is strict about what it
// models (case-exact keys, JSON types, the required allowDefaultOptions and
// enable flags) and keeps every other key in Extra; the singular card keys
// and issuerFilters are accepted and re-encoded in their canonical spelling.
// A BIN or tenure range that is not well formed is kept for Validate to
// report. Errors are *ValidationError naming the path from
// "payment_filter". null leaves f unchanged.
func (f *Filter) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeFilter(data, "payment_filter")
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
	out := &Filter{AllowDefaultOptions: obj.requiredBool("allowDefaultOptions")}
	// options is required by the spec but absent from some published
	// samples that carry only emiOptions; absent decodes as empty and is
	// sent as [] (documented normalisation).
	if raw, ok := obj.take("options"); ok {
		elems := obj.array("options", raw)
		if elems != nil {
			out.Options = make([]Option, len(elems))
		}
		for i, e := range elems {
			if obj.err != nil {
				break
			}
			var o *Option
			if o, obj.err = decodeOption(e, valid.Index(valid.Join(path, "options"), i)); o != nil {
				out.Options[i] = *o
			}
		}
	}
	if raw, ok := obj.take("emiOptions"); ok && obj.err == nil {
		var e emi.Options
		if err := e.UnmarshalJSON(raw); err != nil {
			var c valid.Collector
			c.Merge(path, err)
			obj.err = c.Err()
		} else {
			out.EMIOptions = &e
		}
	}
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes an option (see Filter.UnmarshalJSON); paths in
// errors are relative to the option.
func (o *Option) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeOption(data, "")
	if err != nil {
		return err
	}
	*o = *v
	return nil
}

func decodeOption(data []byte, path string) (*Option, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Option{}
	if raw, ok := obj.takeRequired("paymentMethodType"); ok {
		out.PaymentMethodType = MethodType(obj.stringValue("paymentMethodType", raw, true))
	}
	out.Enable = obj.requiredBool("enable")
	if raw, ok := obj.take("paymentMethods"); ok {
		out.PaymentMethods = obj.strings("paymentMethods", raw)
	}
	if raw, ok := obj.take("cardFilters"); ok {
		elems := obj.array("cardFilters", raw)
		if elems != nil {
			out.CardFilters = make([]CardFilter, len(elems))
		}
		for i, e := range elems {
			if obj.err != nil {
				break
			}
			var c *CardFilter
			if c, obj.err = decodeCardFilter(e, valid.Index(valid.Join(path, "cardFilters"), i)); c != nil {
				out.CardFilters[i] = *c
			}
		}
	}
	if raw, ok := obj.take("upiFilters"); ok {
		elems := obj.array("upiFilters", raw)
		if elems != nil {
			out.UPIFilters = make([]UPIFilter, len(elems))
		}
		for i, e := range elems {
			if obj.err != nil {
				break
			}
			var u *UPIFilter
			if u, obj.err = decodeUPIFilter(e, valid.Index(valid.Join(path, "upiFilters"), i)); u != nil {
				out.UPIFilters[i] = *u
			}
		}
	}
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes a cardFilter, accepting the singular keys (see
// Filter.UnmarshalJSON); paths in errors are relative to the card filter.
func (c *CardFilter) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeCardFilter(data, "")
	if err != nil {
		return err
	}
	*c = *v
	return nil
}

func decodeCardFilter(data []byte, path string) (*CardFilter, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &CardFilter{Enable: obj.requiredBool("enable")}
	if raw, ok := obj.takeAlias("cardBrands", "cardBrand"); ok {
		out.CardBrands = obj.strings("cardBrands", raw)
	}
	if raw, ok := obj.takeAlias("cardBins", "cardBin"); ok {
		if list := obj.strings("cardBins", raw); list != nil {
			out.CardBins = make([]BINRange, len(list))
			for i, s := range list {
				_ = out.CardBins[i].UnmarshalText([]byte(s))
			}
		}
	}
	if raw, ok := obj.takeAlias("cardTypes", "cardType"); ok {
		if list := obj.strings("cardTypes", raw); list != nil {
			out.CardTypes = make([]CardType, len(list))
			for i, s := range list {
				out.CardTypes[i] = CardType(s)
			}
		}
	}
	if raw, ok := obj.takeAlias("cardSubTypes", "cardSubType"); ok {
		out.CardSubTypes = obj.strings("cardSubTypes", raw)
	}
	if raw, ok := obj.takeAlias("cardBanks", "cardBank"); ok {
		out.CardBanks = obj.strings("cardBanks", raw)
	}
	out.Extra = obj.extra()
	return out, obj.err
}

// UnmarshalJSON decodes a upiFilter (see Filter.UnmarshalJSON); paths in
// errors are relative to the UPI filter.
func (u *UPIFilter) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	v, err := decodeUPIFilter(data, "")
	if err != nil {
		return err
	}
	*u = *v
	return nil
}

func decodeUPIFilter(data []byte, path string) (*UPIFilter, error) {
	obj, err := newObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &UPIFilter{}
	out.UPIType = UPIType(obj.optionalString("upiType"))
	out.Enable = obj.requiredBool("enable")
	if raw, ok := obj.take("upiMethods"); ok {
		out.UPIMethods = obj.strings("upiMethods", raw)
	}
	out.Extra = obj.extra()
	return out, obj.err
}
