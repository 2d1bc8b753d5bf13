package lint

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/validation"
)

// minReferenceLen is the shortest object_reference_id the service's
// reference advises.
const minReferenceLen = 8

// order advises on an order request: the shape of amounts, order_id,
// phone, email and return_url, gateway metadata with surrounding spaces,
// collection links, Extra keys.
func (a *advice) order(r *checkout.OrderRequest) {
	if r == nil {
		return
	}
	a.orderID("order_id", r.OrderID)
	a.amount("amount", r.Amount)
	a.email("customer_email", r.CustomerEmail)
	a.phone("customer_phone", r.CustomerPhone)
	a.url("return_url", r.ReturnURL)
	a.amount("metadata.subvention_amount", r.SubventionAmount)
	for i, m := range r.GatewayMetadata {
		if strings.TrimSpace(m.Gateway) != m.Gateway || strings.TrimSpace(m.Key) != m.Key {
			a.Add(validation.Index("metadata", i), "has a gateway or key with surrounding spaces, which are sent as part of the key")
		}
	}
	if r.CollectionLinks != nil {
		a.collectionLinks("payment_collection_link_details", r.CollectionLinks)
	}
	extraKeys(a, r.Extra)
}

// collectionLinks advises on the links at path: no method, an unknown or
// repeated method.
func (a *advice) collectionLinks(path string, l *checkout.CollectionLinks) {
	methods := validation.Join(path, "supported_payment_methods")
	if len(l.Links) == 0 {
		a.Add(methods, "is empty: ask for PAY, QR or both")
	}
	seen := map[checkout.CollectionMethod]bool{}
	for i, link := range l.Links {
		switch {
		case !link.Method.Valid():
			a.Add(validation.Index(methods, i), fmt.Sprintf("%q is neither %s nor %s", string(link.Method), checkout.CollectionPay, checkout.CollectionQR))
		case seen[link.Method]:
			a.Add(validation.Index(methods, i), string(link.Method)+" is given twice")
		}
		seen[link.Method] = true
	}
}

// update advises on an order update: one that changes nothing, the
// amount's shape, Extra keys.
func (a *advice) update(r *checkout.UpdateOrderRequest) {
	if r == nil {
		return
	}
	if r.Amount == "" && r.BillingAddress == nil && r.ShippingAddress == nil && len(r.Extra) == 0 {
		a.Add("", "changes nothing: set the amount, an address or udf fields")
	}
	a.amount("amount", r.Amount)
	extraKeys(a, r.Extra)
}

// customer advises on a new customer: a short object_reference_id, the
// shape of the mobile number, country code and email address.
func (a *advice) customer(r *checkout.CustomerRequest) {
	if r == nil {
		return
	}
	if n := utf8.RuneCountInString(r.ObjectReferenceID); n > 0 && n < minReferenceLen {
		a.Add("object_reference_id", fmt.Sprintf("has %d characters: the service's reference advises at least %d", n, minReferenceLen))
	}
	a.contact(r.MobileNumber, r.EmailAddress, r.MobileCountryCode)
}

// updateCustomer advises on a customer update: one that changes nothing,
// the shape of the mobile number, country code and email address.
func (a *advice) updateCustomer(r *checkout.UpdateCustomerRequest) {
	if r == nil {
		return
	}
	if *r == (checkout.UpdateCustomerRequest{}) {
		a.Add("", "changes nothing: set at least one detail")
	}
	a.contact(r.MobileNumber, r.EmailAddress, r.MobileCountryCode)
}

// contact advises on a customer's mobile number, email address and
// country code.
func (a *advice) contact(mobile, email, countryCode string) {
	a.phone("mobile_number", mobile)
	a.email("email_address", email)
	a.phone("mobile_country_code", countryCode)
}
