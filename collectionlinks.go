package checkout

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/payorch/checkout-go/validation"
)

// CollectionMethod names a payment collection link in a request.
type CollectionMethod string

// The collection link methods. The reply names the PAY link INTENT.
const (
	// CollectionPay asks for the UPI intent link (Order.CollectionLinks.Intent).
	CollectionPay CollectionMethod = "PAY"
	// CollectionQR asks for the UPI QR link (Order.CollectionLinks.QR).
	CollectionQR CollectionMethod = "QR"
)

// Valid reports whether m is CollectionPay or CollectionQR. Other methods
// are sent as given; lint.Check reports them.
func (m CollectionMethod) Valid() bool { return m == CollectionPay || m == CollectionQR }

// CollectionLinks asks for payment collection links: links the customer
// pays through without the checkout screen. It sends
// options.get_payment_collection_link=1 and, under its own key, JSON text
// such as
// {"supported_payment_methods":["PAY","QR"],"expiry_details":[{"payment_method":"PAY","expiry_in_mins":"30"}]}.
type CollectionLinks struct {
	// Links lists the methods wanted, in the order sent. lint.Check
	// advises each method at most once and only PAY and QR; others are
	// sent as given.
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

// The keys of the JSON text CollectionLinks sends.
const (
	keySupportedMethods = "supported_payment_methods"
	keyExpiryDetails    = "expiry_details"
	keyExpiryInMins     = "expiry_in_mins"
)

// collectionDetails is the JSON text CollectionLinks sends.
type collectionDetails struct {
	SupportedPaymentMethods []CollectionMethod `json:"supported_payment_methods"`
	ExpiryDetails           []expiryDetail     `json:"expiry_details,omitempty"`
}

type expiryDetail struct {
	PaymentMethod CollectionMethod `json:"payment_method"`
	ExpiryInMins  string           `json:"expiry_in_mins"`
}

// EncodeValues adds the links' JSON text to v under key, and the key that
// turns collection links on; it lets go-querystring encode an OrderRequest.
func (l *CollectionLinks) EncodeValues(key string, v *url.Values) error {
	if l == nil {
		return nil // no links asked for
	}
	text, err := l.MarshalText()
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	v.Set("options.get_payment_collection_link", "1")
	v.Set(key, string(text))
	return nil
}

// MarshalText returns the JSON text sent under
// payment_collection_link_details: the methods in order, and the expiry of
// each link that has one, in whole minutes as text.
func (l CollectionLinks) MarshalText() ([]byte, error) {
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
	return json.Marshal(d)
}

// check records what cannot be sent as written: a lifetime that is not a
// whole number of minutes (the form carries whole minutes, so the rest
// would be dropped) or is negative (the form would carry none).
func (l *CollectionLinks) check(v *validation.Error, path string) {
	l.eachExpiry(path, func(entry string, link CollectionLink) {
		switch {
		case link.Expiry < 0:
			v.Add(validation.Join(entry, keyExpiryInMins), "must not be negative: give a lifetime in whole minutes, or none")
		case link.Expiry%time.Minute != 0:
			v.Add(validation.Join(entry, keyExpiryInMins), "must be a whole number of minutes")
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
		f(validation.Index(validation.Join(path, keyExpiryDetails), n), link)
		n++
	}
}
