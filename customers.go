package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/internal/valid"
)

// Customers: the customer object the service keeps for you, which stored
// payment methods, EMI and mandates hang on. The calls are those of the
// service's official server SDKs: create, get and update.

// CustomerDetails are the details of a customer you set when creating it
// and change with [Client.UpdateCustomer], sent as a form. Empty fields are
// not sent.
type CustomerDetails struct {
	// MobileNumber is the customer's mobile number (mobile_number);
	// required to create a customer. The documents advise the number alone,
	// without "+" or country code.
	MobileNumber string `url:"mobile_number,omitempty" lint:"phone"`
	// EmailAddress is the customer's email address (email_address).
	EmailAddress string `url:"email_address,omitempty" lint:"email"`
	// FirstName is the customer's first name (first_name).
	FirstName string `url:"first_name,omitempty"`
	// LastName is the customer's last name (last_name).
	LastName string `url:"last_name,omitempty"`
	// MobileCountryCode is the country code of MobileNumber, without "+"
	// ("91") (mobile_country_code).
	MobileCountryCode string `url:"mobile_country_code,omitempty" lint:"phone"`
}

// CreateCustomerRequest creates a customer ([Client.CreateCustomer]), sent
// as a form.
type CreateCustomerRequest struct {
	// ObjectReferenceID is your unique id of the customer
	// (object_reference_id, required), such as the id in your database;
	// the service's reference advises at least 8 characters.
	ObjectReferenceID string `url:"object_reference_id,omitempty" check:"required"`
	// CustomerDetails are the customer's details; MobileNumber is required.
	CustomerDetails
	// ClientAuthToken asks for a client auth token in the reply
	// ([Customer.ClientAuthToken]), for the service's client SDKs, by
	// sending options.get_client_auth_token=true.
	ClientAuthToken bool `url:"options.get_client_auth_token,omitempty"`
}

// CustomerQuery asks for more in the reply of [Client.GetCustomer].
type CustomerQuery struct {
	// ClientAuthToken asks for a fresh client auth token
	// ([Customer.ClientAuthToken]), sent as the query parameter
	// options.get_client_auth_token=true.
	ClientAuthToken bool `url:"options.get_client_auth_token,omitempty"`
}

var (
	createCustomerChecks = checksOf[CreateCustomerRequest]("url")
	createCustomerNames  = namesOf[CreateCustomerRequest]("url")
	customerChecks       = checksOf[CustomerDetails]("url")
)

// minReferenceLen is the shortest object_reference_id the service's
// reference advises.
const minReferenceLen = 8

// Validate reports what the service refuses, or what the form could not
// say as the request does: a missing object_reference_id or mobile_number,
// text that is not valid UTF-8. nil when there is none;
// [CreateCustomerRequest.Lint] gives the advice.
func (r *CreateCustomerRequest) Validate() error {
	return validateRequest(r, "create customer request is nil", createCustomerChecks, func(c *valid.Collector) {
		if strings.TrimSpace(r.MobileNumber) == "" {
			c.Add(createCustomerNames()["MobileNumber"], "is required")
		}
	})
}

// Lint returns advice on a request Validate lets through: an
// object_reference_id shorter than 8 characters, and the shape of the
// mobile number, country code and email address. nil means no advice.
func (r *CreateCustomerRequest) Lint() []Problem {
	if r == nil {
		return nil
	}
	var c valid.Collector
	if n := len([]rune(r.ObjectReferenceID)); n > 0 && n < minReferenceLen {
		c.Add(createCustomerNames()["ObjectReferenceID"], fmt.Sprintf("has %d characters: the service's reference advises at least %d", n, minReferenceLen))
	}
	lintFields(&c, "", reflect.ValueOf(r).Elem(), createCustomerChecks())
	return problems(&c)
}

// Validate reports text that is not valid UTF-8 (the form would carry
// other characters); nil when there is none. Every field is optional.
func (d *CustomerDetails) Validate() error {
	return validateRequest(d, "customer details are nil", customerChecks, nil)
}

// Lint returns advice on details Validate lets through: details that
// change nothing, and the shape of the mobile number, country code and
// email address. nil means no advice.
func (d *CustomerDetails) Lint() []Problem {
	if d == nil {
		return nil
	}
	var c valid.Collector
	if *d == (CustomerDetails{}) {
		c.Add("", "changes nothing: set at least one detail")
	}
	lintFields(&c, "", reflect.ValueOf(d).Elem(), customerChecks())
	return problems(&c)
}

// Customer is a customer as the service keeps it: the reply of
// [Client.CreateCustomer], [Client.GetCustomer] and
// [Client.UpdateCustomer]. With encoding/json it decodes as those calls do
// and encodes as the service's reply, Raw.
type Customer struct {
	// ID is the service's id of the customer ("cst_…"); the customer calls
	// take it, or your ObjectReferenceID.
	ID string `json:"id,omitempty"`
	// Object names the kind of object ("customer").
	Object string `json:"object,omitempty"`
	// ObjectReferenceID is your id of the customer.
	ObjectReferenceID string `json:"object_reference_id,omitempty"`
	// MobileNumber is the customer's mobile number.
	MobileNumber string `json:"mobile_number,omitempty"`
	// MobileCountryCode is the country code of MobileNumber.
	MobileCountryCode string `json:"mobile_country_code,omitempty"`
	// EmailAddress is the customer's email address.
	EmailAddress string `json:"email_address,omitempty"`
	// FirstName is the customer's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the customer's last name.
	LastName string `json:"last_name,omitempty"`
	// DateCreated is when the customer was created (date_created); zero
	// when absent or unreadable.
	DateCreated time.Time `json:"-"`
	// LastUpdated is when the customer last changed (last_updated); zero
	// when absent or unreadable.
	LastUpdated time.Time `json:"-"`
	// ClientAuthToken is the client auth token the reply carries when it
	// was asked for (juspay.client_auth_token); empty otherwise.
	ClientAuthToken string `json:"-"`
	// ClientAuthTokenExpiry is when ClientAuthToken stops working
	// (juspay.client_auth_token_expiry); zero when absent or unreadable.
	ClientAuthTokenExpiry time.Time `json:"-"`
	// Raw is the whole reply.
	Raw json.RawMessage `json:"-"`
}

// customerFields is Customer without its methods.
type customerFields Customer

// customerJSON is a Customer as the service writes it: the token under
// juspay, and the dates in either of the service's two forms. Both
// directions go through it.
type customerJSON struct {
	customerFields             // a value, so that the lenient second decode can reset it
	DateCreated    serviceTime `json:"date_created,omitzero"`
	LastUpdated    serviceTime `json:"last_updated,omitzero"`
	tokenHolder
}

// serviceTime is a date as the customer replies write it: RFC 3339
// ("2020-03-17T14:13:37Z") or with a numeric offset without a colon
// ("2016-08-02T08:07:52+0000"). It encodes as RFC 3339.
type serviceTime time.Time

// IsZero reports the zero time, which is not written.
func (t serviceTime) IsZero() bool { return time.Time(t).IsZero() }

// MarshalJSON writes the time as RFC 3339.
func (t serviceTime) MarshalJSON() ([]byte, error) { return time.Time(t).MarshalJSON() }

// UnmarshalJSON reads either form; anything else is an error, which the
// lenient decoding turns into the zero time.
func (t *serviceTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700"} {
		if v, err := time.Parse(layout, s); err == nil {
			*t = serviceTime(v)
			return nil
		}
	}
	return errors.New("not a date the service writes")
}

func (cu *Customer) decode(body []byte) error {
	var w customerJSON
	if err := decodeResponse(&w, body, nil); err != nil {
		return err
	}
	*cu = Customer(w.customerFields)
	cu.DateCreated, cu.LastUpdated = time.Time(w.DateCreated), time.Time(w.LastUpdated)
	cu.ClientAuthToken, cu.ClientAuthTokenExpiry = w.token()
	return nil
}

// UnmarshalJSON decodes a customer reply as the customer calls do; Raw
// keeps the whole body. JSON null leaves cu unchanged.
func (cu *Customer) UnmarshalJSON(data []byte) error {
	return unmarshalReply(cu, data, "customer")
}

// MarshalJSON returns Raw when it is set (Raw wins over edited fields).
// Without Raw it encodes the typed fields as the service writes them,
// leaving empty ones out.
func (cu Customer) MarshalJSON() ([]byte, error) {
	return marshalReply(cu.Raw, customerJSON{
		customerFields: customerFields(cu),
		DateCreated:    serviceTime(cu.DateCreated),
		LastUpdated:    serviceTime(cu.LastUpdated),
		tokenHolder:    holding(cu.ClientAuthToken, cu.ClientAuthTokenExpiry),
	})
}

// customerPath returns /customers/{id} with the id path-escaped, or a
// validation error.
func customerPath(id string) (string, error) {
	key := orderNames()["CustomerID"]
	var c valid.Collector
	switch {
	case strings.TrimSpace(id) == "":
		c.Add(key, "is required")
	case id == "." || id == "..":
		c.Add(key, `must not be "." or ".."`)
	}
	if err := c.Err(); err != nil {
		return "", err
	}
	return customersPath + "/" + url.PathEscape(id), nil
}

// customersPath is the path of the customer calls.
const customersPath = "/customers"

// postCustomer is a POST of a form to one of the customer calls. The
// customer calls take no version header; a write is not retried after it
// may have reached the service.
func postCustomer(op, path string, form url.Values) *call {
	return &call{op: op, method: http.MethodPost, path: path, body: []byte(form.Encode()),
		contentType: "application/x-www-form-urlencoded"}
}

// CreateCustomer creates a customer and returns it, with a client auth
// token when the request asks for one. Pass the customer's id (or your
// ObjectReferenceID) as the customer id of later orders and sessions, and
// consider [WithRoutingID] with it, as the service advises. A
// *ValidationError means nothing was sent. It is not retried after it may
// have reached the service: on a timeout, look the customer up with
// [Client.GetCustomer] by your ObjectReferenceID before creating it again.
func (c *Client) CreateCustomer(ctx context.Context, req *CreateCustomerRequest, opts ...RequestOption) (*Customer, error) {
	const op = "create customer"
	form, err := c.formFor(op, nil, req)
	if err != nil {
		return nil, err
	}
	return send(ctx, c, postCustomer(op, customersPath, form), opts, decodeReply[Customer])
}

// GetCustomer reads a customer by the service's id ("cst_…") or your
// ObjectReferenceID; q may ask for a fresh client auth token, nil asks for
// nothing more. The service answers an unknown customer with an error
// (object_not_found), the sign to create it. The call is idempotent, so it
// is also retried after timeouts and 500, 502, 504.
func (c *Client) GetCustomer(ctx context.Context, customerID string, q *CustomerQuery, opts ...RequestOption) (*Customer, error) {
	const op = "get customer"
	path, err := customerPath(customerID)
	if err := c.checkCall(op, err); err != nil {
		return nil, err
	}
	cl := &call{op: op, method: http.MethodGet, path: path, idempotent: true}
	if q != nil {
		v, err := query.Values(q)
		if err != nil {
			return nil, fmt.Errorf("checkout: %s: %w", op, err)
		}
		cl.query = v.Encode()
	}
	return send(ctx, c, cl, opts, decodeReply[Customer])
}

// UpdateCustomer changes the details of a customer, by the service's id or
// your ObjectReferenceID, and returns the customer as the service then
// holds it; only the fields set are sent. Like every write, it is not
// retried after it may have reached the service: on a timeout, read the
// customer with [Client.GetCustomer] before sending it again.
func (c *Client) UpdateCustomer(ctx context.Context, customerID string, details *CustomerDetails, opts ...RequestOption) (*Customer, error) {
	const op = "update customer"
	path, err := customerPath(customerID)
	form, err := c.formFor(op, err, details)
	if err != nil {
		return nil, err
	}
	return send(ctx, c, postCustomer(op, path, form), opts, decodeReply[Customer])
}
