package checkout

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"strconv"
	"time"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/tags"
	"github.com/payorch/checkout-go/internal/valid"
)

// The typed form fields of an order request that are more than one text:
// addresses, gateway metadata and payment collection links. Each writes its
// own keys through go-querystring's EncodeValues.

// Address is a billing or shipping address of an order. Each field is sent
// under the address's key and its own, joined by an underscore:
// billing_address_city.
type Address struct {
	// FirstName is the first name (first_name).
	FirstName string `url:"first_name,omitempty"`
	// LastName is the last name (last_name).
	LastName string `url:"last_name,omitempty"`
	// Line1 is the first address line (line1).
	Line1 string `url:"line1,omitempty"`
	// Line2 is the second address line (line2).
	Line2 string `url:"line2,omitempty"`
	// Line3 is the third address line (line3).
	Line3 string `url:"line3,omitempty"`
	// City is the city (city).
	City string `url:"city,omitempty"`
	// State is the state or region (state).
	State string `url:"state,omitempty"`
	// Country is the country's name (country).
	Country string `url:"country,omitempty"`
	// PostalCode is the postal code (postal_code).
	PostalCode string `url:"postal_code,omitempty"`
	// Phone is a phone number for this address (phone).
	Phone string `url:"phone,omitempty"`
	// CountryCodeISO is the ISO 3166 country code, e.g. "IND"
	// (country_code_iso).
	CountryCodeISO string `url:"country_code_iso,omitempty"`
}

var addressChecks = checksOf[Address]("url")

// addressJoin joins an address's key and its fields' keys.
const addressJoin = "_"

// EncodeValues adds the address's fields to v under key_<field key>; it
// lets go-querystring encode an OrderRequest.
func (a *Address) EncodeValues(key string, v *url.Values) error {
	fields, err := query.Values(a)
	for k, vs := range fields {
		(*v)[key+addressJoin+k] = vs
	}
	return err
}

// formKeys returns the keys an address sends under key.
func (*Address) formKeys(key string) []string {
	var out []string
	for _, f := range tags.Fields(reflect.TypeFor[Address](), "url") {
		out = append(out, key+addressJoin+f.Key)
	}
	return out
}

// GatewayMetadata is one value passed to a gateway, sent as
// metadata.<Gateway>:<Key>, for example {Gateway: "PAYU", Key:
// "offer_key", Value: "…"}.
type GatewayMetadata struct {
	// Gateway is the gateway's code, e.g. "PAYU"; not empty, no ":" or "."
	// (the service could not tell where it ends).
	Gateway string
	// Key is the gateway-specific key; not empty, no ":".
	Key string
	// Value is sent as given.
	Value string
}

// GatewayMetadataList is the gateway metadata of an order, in order.
type GatewayMetadataList []GatewayMetadata

// EncodeValues adds each entry to v as key.<Gateway>:<Key>; it lets
// go-querystring encode an OrderRequest.
func (l GatewayMetadataList) EncodeValues(key string, v *url.Values) error {
	for _, m := range l {
		(*v)[m.key(key)] = []string{m.Value}
	}
	return nil
}

// formKeys returns no keys: the entries' keys are checked one by one.
func (GatewayMetadataList) formKeys(string) []string { return nil }

func (m GatewayMetadata) key(prefix string) string { return prefix + "." + m.Gateway + ":" + m.Key }

// CollectionMethod names a payment collection link in a request.
type CollectionMethod string

// The collection link methods. The reply names the PAY link INTENT.
const (
	// CollectionPay asks for the UPI intent link (Order.CollectionLinks.Intent).
	CollectionPay CollectionMethod = "PAY"
	// CollectionQR asks for the UPI QR link (Order.CollectionLinks.QR).
	CollectionQR CollectionMethod = "QR"
)

// CollectionLinks asks for payment collection links: links the customer
// pays through without the checkout screen. It sends
// options.get_payment_collection_link=1 and, under its own key, JSON text
// such as
// {"supported_payment_methods":["PAY","QR"],"expiry_details":[{"payment_method":"PAY","expiry_in_mins":"30"}]}.
type CollectionLinks struct {
	// Links lists the methods wanted, in the order sent. Lint advises each
	// method at most once and only PAY and QR; others are sent as given.
	Links []CollectionLink
}

// CollectionLink is one method of CollectionLinks.
type CollectionLink struct {
	// Method is CollectionPay or CollectionQR.
	Method CollectionMethod
	// Expiry is the link's lifetime from its creation, a whole number of
	// minutes (sent as expiry_in_mins, text; Validate refuses a fraction of
	// a minute, which the text could not carry). Zero sends no expiry for
	// this method and the service's default applies.
	Expiry time.Duration
}

// collectionFlag is the form key that turns collection links on.
const collectionFlag = "options.get_payment_collection_link"

// collectionDetails is the JSON text CollectionLinks sends.
type collectionDetails struct {
	SupportedPaymentMethods []CollectionMethod `json:"supported_payment_methods"`
	ExpiryDetails           []expiryDetail     `json:"expiry_details,omitempty"`
}

type expiryDetail struct {
	PaymentMethod CollectionMethod `json:"payment_method"`
	ExpiryInMins  string           `json:"expiry_in_mins"`
}

var (
	detailNames = namesOf[collectionDetails]("json")
	expiryNames = namesOf[expiryDetail]("json")
)

// EncodeValues adds the links' JSON text to v under key, and the key that
// turns collection links on; it lets go-querystring encode an OrderRequest.
func (l *CollectionLinks) EncodeValues(key string, v *url.Values) error {
	d := collectionDetails{SupportedPaymentMethods: make([]CollectionMethod, 0, len(l.Links))}
	for _, link := range l.Links {
		d.SupportedPaymentMethods = append(d.SupportedPaymentMethods, link.Method)
		if link.Expiry > 0 {
			d.ExpiryDetails = append(d.ExpiryDetails, expiryDetail{
				PaymentMethod: link.Method,
				ExpiryInMins:  strconv.FormatInt(int64(link.Expiry/time.Minute), 10),
			})
		}
	}
	text, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	v.Set(collectionFlag, "1")
	v.Set(key, string(text))
	return nil
}

// UnmarshalText reads back the JSON text EncodeValues writes under
// payment_collection_link_details: one link per supported method, in
// order, each with the lifetime its expiry details give (whole minutes, as
// text). It lets a fake of the service, or a test, read a form as the
// service does; methods and lifetimes are kept as sent ([OrderRequest.Lint]
// gives the advice). Text that is not that JSON object, a lifetime that is
// not whole minutes in text, or an expiry for a method the text does not
// list is a *ValidationError whose paths are the text's keys.
func (l *CollectionLinks) UnmarshalText(text []byte) error {
	var d collectionDetails
	if err := json.Unmarshal(text, &d); err != nil {
		p := Problem{Message: "is not JSON text: " + err.Error()}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			p = Problem{Path: te.Field, Message: "cannot be a JSON " + te.Value}
		}
		return &ValidationError{Problems: []Problem{p}}
	}
	out := CollectionLinks{Links: make([]CollectionLink, 0, len(d.SupportedPaymentMethods))}
	timed := make([]bool, len(d.SupportedPaymentMethods))
	for _, m := range d.SupportedPaymentMethods {
		out.Links = append(out.Links, CollectionLink{Method: m})
	}
	var c valid.Collector
	for i, e := range d.ExpiryDetails {
		entry := valid.Index(detailNames()["ExpiryDetails"], i)
		mins, err := strconv.ParseInt(e.ExpiryInMins, 10, 64)
		if err != nil || mins > math.MaxInt64/int64(time.Minute) || mins < math.MinInt64/int64(time.Minute) {
			c.Add(valid.Join(entry, expiryNames()["ExpiryInMins"]), strconv.Quote(e.ExpiryInMins)+" is not a whole number of minutes")
			continue
		}
		j := 0
		for j < len(out.Links) && (out.Links[j].Method != e.PaymentMethod || timed[j]) {
			j++
		}
		if j == len(out.Links) {
			c.Add(valid.Join(entry, expiryNames()["PaymentMethod"]), strconv.Quote(string(e.PaymentMethod))+" has no link of its own in "+detailNames()["SupportedPaymentMethods"])
			continue
		}
		out.Links[j].Expiry, timed[j] = time.Duration(mins)*time.Minute, true
	}
	if err := c.Err(); err != nil {
		return err
	}
	*l = out
	return nil
}

// formKeys returns the keys collection links send under key.
func (*CollectionLinks) formKeys(key string) []string { return []string{key, collectionFlag} }

// check records what the service cannot be sent as written: a lifetime
// that is not a whole number of minutes (the form carries whole minutes,
// so the rest would be dropped).
func (l *CollectionLinks) check(c *valid.Collector, path string) {
	l.eachExpiry(path, func(entry string, link CollectionLink) {
		if link.Expiry%time.Minute != 0 {
			c.Add(valid.Join(entry, expiryNames()["ExpiryInMins"]), "must be a whole number of minutes")
		}
	})
}

// lint gives the advice on the links at path: no method, an unknown or
// repeated method, a negative lifetime.
func (l *CollectionLinks) lint(c *valid.Collector, path string) {
	methods := valid.Join(path, detailNames()["SupportedPaymentMethods"])
	if len(l.Links) == 0 {
		c.Add(methods, "is empty: ask for PAY, QR or both")
	}
	seen := map[CollectionMethod]bool{}
	for i, link := range l.Links {
		switch {
		case link.Method != CollectionPay && link.Method != CollectionQR:
			c.Add(valid.Index(methods, i), fmt.Sprintf("%q is neither %s nor %s", string(link.Method), CollectionPay, CollectionQR))
		case seen[link.Method]:
			c.Add(valid.Index(methods, i), string(link.Method)+" is given twice")
		}
		seen[link.Method] = true
	}
	l.eachExpiry(path, func(entry string, link CollectionLink) {
		if link.Expiry < 0 {
			c.Add(valid.Join(entry, expiryNames()["ExpiryInMins"]), "is negative")
		}
	})
}

// eachExpiry calls f with the path of each link's entry in expiry_details,
// for the links that send one.
func (l *CollectionLinks) eachExpiry(path string, f func(entry string, link CollectionLink)) {
	n := 0
	for _, link := range l.Links {
		if link.Expiry == 0 {
			continue
		}
		f(valid.Index(valid.Join(path, detailNames()["ExpiryDetails"]), n), link)
		n++
	}
}
