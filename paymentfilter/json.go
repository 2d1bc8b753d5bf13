package paymentfilter

import (
	"encoding/json"
	"slices"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/jsonobject"
	"github.com/payorch/checkout-go/validation"
)

// The wire keys of payment_filter, as the service spells them (case
// sensitive). The json tags of the types say the same; a test checks that
// every problem path names one of them.
const (
	rootPath        = "payment_filter" // the session request's key of the filter, where paths start
	allowKey        = "allowDefaultOptions"
	optionsKey      = "options"
	emiOptionsKey   = "emiOptions"
	methodTypeKey   = "paymentMethodType"
	enableKey       = "enable"
	methodsKey      = "paymentMethods"
	cardFiltersKey  = "cardFilters"
	upiFiltersKey   = "upiFilters"
	cardBrandsKey   = "cardBrands"
	cardBinsKey     = "cardBins"
	cardTypesKey    = "cardTypes"
	cardSubTypesKey = "cardSubTypes"
	cardBanksKey    = "cardBanks"
	upiTypeKey      = "upiType"
	upiMethodsKey   = "upiMethods"

	// The singular card keys of the service's field table, accepted on
	// decode.
	cardBrandKey   = "cardBrand"
	cardBinKey     = "cardBin"
	cardTypeKey    = "cardType"
	cardSubTypeKey = "cardSubType"
	cardBankKey    = "cardBank"
)

// The keys of each object, with the other spellings decoding accepts: what
// Extra may not set, and what a mis-cased or misplaced Extra key is
// compared with.
func filterKeys() []string { return []string{allowKey, optionsKey, emiOptionsKey} }
func optionKeys() []string {
	return []string{methodTypeKey, enableKey, methodsKey, cardFiltersKey, upiFiltersKey}
}
func cardKeys() []string {
	return []string{enableKey, cardBrandsKey, cardBinsKey, cardTypesKey, cardSubTypesKey, cardBanksKey,
		cardBrandKey, cardBinKey, cardTypeKey, cardSubTypeKey, cardBankKey}
}
func upiKeys() []string { return []string{upiTypeKey, enableKey, upiMethodsKey} }

// emiKeys are the keys of the objects of emiOptions (package emi's json
// tags, with issuerFilters), so that one put in an object of the filter is
// named as misplaced. A test checks them against package emi's tags.
func emiKeys() []string {
	return []string{"standardEmi", "lowCostEmi", "noCostEmi", "showOnlyEmi", "credit", "debit", "cardless",
		"filters", "paymentMethod", "issuerFilter", "issuerFilters", "issuers", "tenures"}
}

// allKeys are the keys of every object of a payment filter, emiOptions
// included.
func allKeys() []string {
	return slices.Concat(filterKeys(), optionKeys(), cardKeys(), upiKeys(), emiKeys())
}

// MarshalJSON encodes f with the service's exact keys: allowDefaultOptions
// and options always ([] when empty, except for a decoded filter that had
// none, see Options), emiOptions when set, then Extra.
func (f Filter) MarshalJSON() ([]byte, error) {
	type plain Filter
	p := plain(f)
	switch {
	case p.Options == nil && !f.optionsAbsent:
		p.Options = []Option{}
	case len(p.Options) == 0 && f.optionsAbsent:
		p.Options = nil
	}
	var b []byte
	var err error
	if w, ok := wireOf(p.AllowDefaultOptions, p.Options, p.EMIOptions); ok {
		b, err = json.Marshal(&w)
	} else {
		b, err = json.Marshal(&p)
	}
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, f.Extra, filterKeys())
}

// UnmarshalJSON decodes a payment_filter object. It is strict about what
// it models (case-exact keys, JSON types, the required allowDefaultOptions
// and enable flags), keeps every other key in Extra, and accepts the
// singular card keys and issuerFilters, sent back in their usual spelling.
// A BIN or tenure range that is not well formed is kept for Validate to
// report. Errors are a *[validation.Error] with every problem at its JSON
// path from "payment_filter"; null leaves f unchanged, and so does an
// error.
func (f *Filter) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(f, data, rootPath, (*Filter).decode)
}

func (f *Filter) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	f.AllowDefaultOptions = jsonobject.Value[bool](obj.Required(allowKey), jsonobject.ABoolean)
	f.Options = jsonobject.Objects(obj.Take(optionsKey), (*Option).decode)
	if m := obj.Take(emiOptionsKey); m.Raw != nil {
		f.EMIOptions = new(emi.Options)
		problems.Merge(path, f.EMIOptions.UnmarshalJSON(m.Raw)) // its paths start at emiOptions
	}
	f.Extra = obj.Rest()
	// options is required by the service's field table but absent from
	// published samples that carry only emiOptions: absent (or null)
	// decodes as empty and is left out again while Options stays empty.
	f.optionsAbsent = f.Options == nil
}

// MarshalJSON encodes o with the service's exact keys, then Extra. Lists
// are sent when non-nil (an empty decoded list is sent back as []).
func (o Option) MarshalJSON() ([]byte, error) {
	type plain Option
	b, err := json.Marshal((*plain)(&o))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, o.Extra, optionKeys())
}

// UnmarshalJSON decodes an option (see [Filter.UnmarshalJSON]); paths in
// errors are relative to the option.
func (o *Option) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(o, data, "", (*Option).decode)
}

func (o *Option) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	o.PaymentMethodType = jsonobject.Value[MethodType](obj.Required(methodTypeKey), jsonobject.AString)
	o.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	o.PaymentMethods = jsonobject.List[string](obj.Take(methodsKey))
	o.CardFilters = jsonobject.Objects(obj.Take(cardFiltersKey), (*CardFilter).decode)
	o.UPIFilters = jsonobject.Objects(obj.Take(upiFiltersKey), (*UPIFilter).decode)
	o.Extra = obj.Rest()
}

// MarshalJSON encodes c with the plural keys the service accepts, then
// Extra.
func (c CardFilter) MarshalJSON() ([]byte, error) {
	type plain CardFilter
	b, err := json.Marshal((*plain)(&c))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, c.Extra, cardKeys())
}

// UnmarshalJSON decodes a cardFilter, accepting the singular keys (both
// spellings of one key in one object is an error); paths in errors are
// relative to the card filter.
func (c *CardFilter) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(c, data, "", (*CardFilter).decode)
}

func (c *CardFilter) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	c.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	c.CardBrands = jsonobject.List[string](obj.Either(cardBrandsKey, cardBrandKey))
	c.CardBins = jsonobject.List[BINRange](obj.Either(cardBinsKey, cardBinKey))
	c.CardTypes = jsonobject.List[CardType](obj.Either(cardTypesKey, cardTypeKey))
	c.CardSubTypes = jsonobject.List[string](obj.Either(cardSubTypesKey, cardSubTypeKey))
	c.CardBanks = jsonobject.List[string](obj.Either(cardBanksKey, cardBankKey))
	c.Extra = obj.Rest()
}

// MarshalJSON encodes u with the service's exact keys, then Extra.
func (u UPIFilter) MarshalJSON() ([]byte, error) {
	type plain UPIFilter
	b, err := json.Marshal((*plain)(&u))
	if err != nil {
		return nil, err
	}
	return jsonobject.AppendExtra(b, u.Extra, upiKeys())
}

// UnmarshalJSON decodes a upiFilter (see [Filter.UnmarshalJSON]); paths in
// errors are relative to the UPI filter.
func (u *UPIFilter) UnmarshalJSON(data []byte) error {
	return jsonobject.Unmarshal(u, data, "", (*UPIFilter).decode)
}

func (u *UPIFilter) decode(problems *validation.Error, data []byte, path string) {
	obj, ok := jsonobject.Read(problems, data, path)
	if !ok {
		return
	}
	u.UPIType = jsonobject.Text[UPIType](obj.Take(upiTypeKey))
	u.Enable = jsonobject.Value[bool](obj.Required(enableKey), jsonobject.ABoolean)
	u.UPIMethods = jsonobject.List[string](obj.Take(upiMethodsKey))
	u.Extra = obj.Rest()
}

// The wire types are Filter and the types below it as encoding/json writes
// them, without their MarshalJSON methods (the same fields, tags and
// order): while no option or card or UPI filter has Extra keys, which only
// those methods add, Filter.MarshalJSON encodes them in one encoding/json
// pass (emiOptions encodes itself the same way). Through the methods,
// encoding/json would scan the output of each level once more for every
// level above it (a test checks that both ways give the same bytes, and
// that the tags agree).
type (
	filterWire struct {
		AllowDefaultOptions bool         `json:"allowDefaultOptions"`
		Options             []optionWire `json:"options,omitzero"`
		EMIOptions          *emi.Options `json:"emiOptions,omitzero"`
	}
	optionWire struct {
		PaymentMethodType MethodType       `json:"paymentMethodType"`
		Enable            bool             `json:"enable"`
		PaymentMethods    []string         `json:"paymentMethods,omitzero"`
		CardFilters       []cardFilterWire `json:"cardFilters,omitzero"`
		UPIFilters        []upiFilterWire  `json:"upiFilters,omitzero"`
	}
	// cardFilterWire and upiFilterWire have the fields of CardFilter and
	// UPIFilter: conversions.
	cardFilterWire CardFilter
	upiFilterWire  UPIFilter
)

// wireOf returns a filter of these fields as its wire type; ok is false
// when an option below it has Extra keys.
func wireOf(allow bool, options []Option, emiOptions *emi.Options) (w filterWire, ok bool) {
	w = filterWire{AllowDefaultOptions: allow, EMIOptions: emiOptions}
	if options == nil {
		return w, true
	}
	w.Options = make([]optionWire, len(options))
	for i := range options {
		if w.Options[i], ok = options[i].wire(); !ok {
			return w, false
		}
	}
	return w, true
}

// wire returns o as its wire type; ok is false when o or a filter in it
// has Extra keys.
func (o *Option) wire() (w optionWire, ok bool) {
	if len(o.Extra) > 0 {
		return w, false
	}
	w = optionWire{PaymentMethodType: o.PaymentMethodType, Enable: o.Enable, PaymentMethods: o.PaymentMethods}
	if o.CardFilters != nil {
		w.CardFilters = make([]cardFilterWire, len(o.CardFilters))
		for i := range o.CardFilters {
			if len(o.CardFilters[i].Extra) > 0 {
				return w, false
			}
			w.CardFilters[i] = cardFilterWire(o.CardFilters[i])
		}
	}
	if o.UPIFilters != nil {
		w.UPIFilters = make([]upiFilterWire, len(o.UPIFilters))
		for i := range o.UPIFilters {
			if len(o.UPIFilters[i].Extra) > 0 {
				return w, false
			}
			w.UPIFilters[i] = upiFilterWire(o.UPIFilters[i])
		}
	}
	return w, true
}
