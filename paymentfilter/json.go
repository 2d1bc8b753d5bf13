package paymentfilter

import (
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/valid"
	"github.com/payorch/checkout-go/internal/wire"
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

// MarshalJSON encodes f with the service's exact keys: allowDefaultOptions
// and options always ([] when empty; the one exception is a decoded filter
// whose object had no options key, which is sent back without one while
// Options stays empty), emiOptions when set, then Extra. It is
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
	b = wire.AppendKey(append(b, '{'), "allowDefaultOptions", true)
	b = wire.AppendBool(b, f.AllowDefaultOptions)
	if !f.optionsAbsent || len(f.Options) > 0 {
		b = wire.AppendKey(b, "options", false)
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
	}
	if f.EMIOptions != nil {
		b = wire.AppendKey(b, "emiOptions", false)
		if b, err = f.EMIOptions.AppendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = wire.AppendExtra(b, f.Extra, false, filterKeys); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes o with the service's exact keys. Lists are sent when
// non-nil (an empty decoded list is sent back as []).
func (o Option) MarshalJSON() ([]byte, error) { return o.appendJSON(nil) }

func (o *Option) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = wire.AppendKey(append(b, '{'), "paymentMethodType", true)
	b = wire.AppendString(b, string(o.PaymentMethodType))
	b = wire.AppendKey(b, "enable", false)
	b = wire.AppendBool(b, o.Enable)
	if o.PaymentMethods != nil {
		b = wire.AppendKey(b, "paymentMethods", false)
		b = wire.AppendStrings(b, o.PaymentMethods)
	}
	if o.CardFilters != nil {
		b = wire.AppendKey(b, "cardFilters", false)
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
		b = wire.AppendKey(b, "upiFilters", false)
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
	if b, err = wire.AppendExtra(b, o.Extra, false, optionKeys); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes c with the plural keys the service accepts.
func (c CardFilter) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c *CardFilter) appendJSON(b []byte) ([]byte, error) {
	b = wire.AppendKey(append(b, '{'), "enable", true)
	b = wire.AppendBool(b, c.Enable)
	if c.CardBrands != nil {
		b = wire.AppendKey(b, "cardBrands", false)
		b = wire.AppendStrings(b, c.CardBrands)
	}
	if c.CardBins != nil {
		b = wire.AppendKey(b, "cardBins", false)
		b = append(b, '[')
		for i, r := range c.CardBins {
			if i > 0 {
				b = append(b, ',')
			}
			if r.malformed {
				b = wire.AppendString(b, r.raw)
			} else {
				// Escaped like any string: a hand-made range may hold
				// anything until Validate has looked at it.
				b = wire.AppendString(b, r.From+"::"+r.To)
			}
		}
		b = append(b, ']')
	}
	if c.CardTypes != nil {
		b = wire.AppendKey(b, "cardTypes", false)
		b = append(b, '[')
		for i, t := range c.CardTypes {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, string(t))
		}
		b = append(b, ']')
	}
	if c.CardSubTypes != nil {
		b = wire.AppendKey(b, "cardSubTypes", false)
		b = wire.AppendStrings(b, c.CardSubTypes)
	}
	if c.CardBanks != nil {
		b = wire.AppendKey(b, "cardBanks", false)
		b = wire.AppendStrings(b, c.CardBanks)
	}
	b, err := wire.AppendExtra(b, c.Extra, false, cardFilterAll)
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
		b = wire.AppendKey(b, "upiType", true)
		b = wire.AppendString(b, string(u.UPIType))
		first = false
	}
	b = wire.AppendKey(b, "enable", first)
	b = wire.AppendBool(b, u.Enable)
	if u.UPIMethods != nil {
		b = wire.AppendKey(b, "upiMethods", false)
		b = wire.AppendStrings(b, u.UPIMethods)
	}
	b, err := wire.AppendExtra(b, u.Extra, false, upiFilterKeys)
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
	return wire.Unmarshal(f, data, "payment_filter", decodeFilter)
}

func decodeFilter(data []byte, path string) (*Filter, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Filter{AllowDefaultOptions: obj.RequiredBool("allowDefaultOptions")}
	// options is required by the spec but absent from some published
	// samples that carry only emiOptions; absent (or null) decodes as
	// empty, and is left out again when encoding while Options stays
	// empty, so that decoding then encoding gives the same JSON.
	out.Options = wire.List(obj, "options", decodeOption)
	out.optionsAbsent = out.Options == nil
	if raw, ok := obj.Take("emiOptions"); ok && obj.Err == nil {
		var e emi.Options
		if err := e.UnmarshalJSON(raw); err != nil {
			var c valid.Collector
			c.Merge(path, err)
			obj.Err = c.Err()
		} else {
			out.EMIOptions = &e
		}
	}
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes an option (see Filter.UnmarshalJSON); paths in
// errors are relative to the option.
func (o *Option) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(o, data, "", decodeOption)
}

func decodeOption(data []byte, path string) (*Option, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &Option{}
	if raw, ok := obj.TakeRequired("paymentMethodType"); ok {
		out.PaymentMethodType = MethodType(obj.StringValue("paymentMethodType", raw, true))
	}
	out.Enable = obj.RequiredBool("enable")
	if raw, ok := obj.Take("paymentMethods"); ok {
		out.PaymentMethods = obj.Strings("paymentMethods", raw)
	}
	out.CardFilters = wire.List(obj, "cardFilters", decodeCardFilter)
	out.UPIFilters = wire.List(obj, "upiFilters", decodeUPIFilter)
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes a cardFilter, accepting the singular keys (see
// Filter.UnmarshalJSON); paths in errors are relative to the card filter.
func (c *CardFilter) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(c, data, "", decodeCardFilter)
}

func decodeCardFilter(data []byte, path string) (*CardFilter, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &CardFilter{Enable: obj.RequiredBool("enable")}
	if raw, ok := obj.TakeAlias("cardBrands", "cardBrand"); ok {
		out.CardBrands = obj.Strings("cardBrands", raw)
	}
	if raw, ok := obj.TakeAlias("cardBins", "cardBin"); ok {
		if list := obj.Strings("cardBins", raw); list != nil {
			out.CardBins = make([]BINRange, len(list))
			for i, s := range list {
				_ = out.CardBins[i].UnmarshalText([]byte(s))
			}
		}
	}
	if raw, ok := obj.TakeAlias("cardTypes", "cardType"); ok {
		if list := obj.Strings("cardTypes", raw); list != nil {
			out.CardTypes = make([]CardType, len(list))
			for i, s := range list {
				out.CardTypes[i] = CardType(s)
			}
		}
	}
	if raw, ok := obj.TakeAlias("cardSubTypes", "cardSubType"); ok {
		out.CardSubTypes = obj.Strings("cardSubTypes", raw)
	}
	if raw, ok := obj.TakeAlias("cardBanks", "cardBank"); ok {
		out.CardBanks = obj.Strings("cardBanks", raw)
	}
	out.Extra = obj.Extra()
	return out, obj.Err
}

// UnmarshalJSON decodes a upiFilter (see Filter.UnmarshalJSON); paths in
// errors are relative to the UPI filter.
func (u *UPIFilter) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(u, data, "", decodeUPIFilter)
}

func decodeUPIFilter(data []byte, path string) (*UPIFilter, error) {
	obj, err := wire.NewObject(data, path)
	if err != nil {
		return nil, err
	}
	out := &UPIFilter{}
	out.UPIType = UPIType(obj.OptionalString("upiType"))
	out.Enable = obj.RequiredBool("enable")
	if raw, ok := obj.Take("upiMethods"); ok {
		out.UPIMethods = obj.Strings("upiMethods", raw)
	}
	out.Extra = obj.Extra()
	return out, obj.Err
}
