package checkout

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-querystring/query"

	"github.com/payorch/checkout-go/validation"
)

// Customers: the customer object the service keeps for you, which stored
// payment methods, EMI and mandates hang on. The calls are those of the
// service's official server SDKs: create, get and update.

// CustomerRequest creates a customer ([Client.CreateCustomer]), sent as a
// form. Empty fields are not sent.
type CustomerRequest struct {
	// ObjectReferenceID is your unique id of the customer
	// (object_reference_id, required), such as the id in your database;
	// the service's reference advises at least 8 characters.
	ObjectReferenceID string `url:"object_reference_id,omitempty"`
	// MobileNumber is the customer's mobile number (mobile_number,
	// required). The documents advise the number alone, without "+" or
	// country code.
	MobileNumber string `url:"mobile_number,omitempty"`
	// EmailAddress is the customer's email address (email_address).
	EmailAddress string `url:"email_address,omitempty"`
	// FirstName is the customer's first name (first_name).
	FirstName string `url:"first_name,omitempty"`
	// LastName is the customer's last name (last_name).
	LastName string `url:"last_name,omitempty"`
	// MobileCountryCode is the country code of MobileNumber, without "+"
	// ("91") (mobile_country_code).
	MobileCountryCode string `url:"mobile_country_code,omitempty"`
	// ClientAuthToken asks for a client auth token in the reply
	// ([Customer.ClientAuthToken]), for the service's client SDKs, by
	// sending options.get_client_auth_token=true.
	ClientAuthToken bool `url:"options.get_client_auth_token,omitempty"`
}

// UpdateCustomerRequest changes the details of a customer
// ([Client.UpdateCustomer]), sent as a form. Only the fields set are sent.
type UpdateCustomerRequest struct {
	// MobileNumber is the customer's new mobile number (mobile_number).
	MobileNumber string `url:"mobile_number,omitempty"`
	// EmailAddress is the customer's new email address (email_address).
	EmailAddress string `url:"email_address,omitempty"`
	// FirstName is the customer's new first name (first_name).
	FirstName string `url:"first_name,omitempty"`
	// LastName is the customer's new last name (last_name).
	LastName string `url:"last_name,omitempty"`
	// MobileCountryCode is the country code of MobileNumber, without "+"
	// ("91") (mobile_country_code).
	MobileCountryCode string `url:"mobile_country_code,omitempty"`
}

// CustomerQuery asks for more in the reply of [Client.GetCustomer].
type CustomerQuery struct {
	// ClientAuthToken asks for a fresh client auth token
	// ([Customer.ClientAuthToken]), sent as the query parameter
	// options.get_client_auth_token=true.
	ClientAuthToken bool `url:"options.get_client_auth_token,omitempty"`
}

// Validate reports, as a *ValidationError keyed by the form's keys, what
// the service refuses or what the form could not say as the request does;
// nil when there is none. The rules are the code of this method; advice is
// [github.com/payorch/checkout-go/lint.Check]'s.
func (r *CustomerRequest) Validate() error {
	if r == nil {
		return nilRequest("customer request is nil")
	}
	var v validation.Error
	checkRequired(&v, "object_reference_id", r.ObjectReferenceID)
	checkForm(&v, r)
	checkRequired(&v, "mobile_number", r.MobileNumber)
	return v.Err()
}

// Validate reports, as a *ValidationError keyed by the form's keys, what
// the form could not say as the request does (every field is optional);
// nil when there is none. The rules are the code of this method; advice is
// [github.com/payorch/checkout-go/lint.Check]'s.
func (r *UpdateCustomerRequest) Validate() error {
	if r == nil {
		return nilRequest("update customer request is nil")
	}
	var v validation.Error
	checkForm(&v, r)
	return v.Err()
}

// Customer is a customer as the service keeps it: the reply of
// [Client.CreateCustomer], [Client.GetCustomer] and
// [Client.UpdateCustomer]; Raw keeps it whole. Its client auth token
// prints redacted.
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
	DateCreated Timestamp `json:"date_created,omitzero"`
	// LastUpdated is when the customer last changed (last_updated); zero
	// when absent or unreadable.
	LastUpdated Timestamp `json:"last_updated,omitzero"`
	// ClientAuth holds ClientAuthToken, present when it was asked for
	// (juspay).
	ClientAuth `json:"juspay,omitzero"`
	// Raw is the whole reply.
	Raw RawJSON `json:"-"`
}

func (cu *Customer) decode(body []byte) error {
	*cu = Customer{} // nothing of an earlier reply (one refused, before a replay) stays
	return decodeObject(body, cu, &cu.Raw, cu.shapeError)
}

func (*Customer) names() (string, Status) { return "", "" }

// LogValue is the customer as JSON, its token redacted.
func (cu Customer) LogValue() slog.Value { return logJSON(cu) }

func (cu *Customer) shapeError() error {
	if cu.ID == "" && cu.Object == "" && cu.ObjectReferenceID == "" && cu.MobileNumber == "" &&
		cu.EmailAddress == "" && cu.FirstName == "" && cu.LastName == "" {
		return notA("a customer", "id, object, object_reference_id, mobile_number, email_address, first_name, last_name")
	}
	return nil
}

// customerPath returns /customers/{id} with the id path-escaped, or a
// validation error.
func customerPath(id string) (string, error) {
	var v validation.Error
	switch {
	case strings.TrimSpace(id) == "":
		v.Add(keyCustomerID, "is required")
	case id == "." || id == "..":
		v.Add(keyCustomerID, `must not be "." or ".."`)
	}
	if err := v.Err(); err != nil {
		return "", err
	}
	return customersPath + "/" + url.PathEscape(id), nil
}

// customersPath is the path of the customer calls.
const customersPath = "/customers"

// postCustomer is a POST of a form to one of the customer calls. The
// customer calls take no version header; a write is not retried after it
// may have reached the service.
func postCustomer(op, name, route, path string, form url.Values) *call {
	return &call{op: op, name: name, method: http.MethodPost, route: route, path: path, body: []byte(form.Encode()), form: true, write: true}
}

// CreateCustomer creates a customer and returns it, with a client auth
// token when the request asks for one. Pass the customer's id (or your
// ObjectReferenceID) as the customer id of later orders and sessions, and
// consider [WithRoutingID] with it, as the service advises. A
// *ValidationError means nothing was sent. It is not retried after it may
// have reached the service: on a timeout, look the customer up with
// [Client.GetCustomer] by your ObjectReferenceID before creating it again.
func (c *Client) CreateCustomer(ctx context.Context, req *CustomerRequest, opts ...RequestOption) (*Customer, error) {
	const op = "create customer"
	form, err := validForm(op, req, req.Validate())
	if err != nil {
		return nil, err
	}
	cu := new(Customer)
	if err := c.do(ctx, postCustomer(op, "CreateCustomer", customersPath, customersPath, form), opts, cu); err != nil {
		return nil, err
	}
	return cu, nil
}

// GetCustomer reads a customer by the service's id ("cst_…") or your
// ObjectReferenceID; q may ask for a fresh client auth token, nil asks for
// nothing more. The service answers an unknown customer with an error
// (object_not_found), the sign to create it. The call is idempotent, so it
// is also retried after timeouts and 500, 502, 504.
func (c *Client) GetCustomer(ctx context.Context, customerID string, q *CustomerQuery, opts ...RequestOption) (*Customer, error) {
	const op = "get customer"
	path, err := customerPath(customerID)
	if err != nil {
		return nil, invalid(op, err)
	}
	cl := &call{op: op, name: "GetCustomer", method: http.MethodGet, route: "/customers/{customer_id}", path: path}
	if q != nil {
		v, err := query.Values(q)
		if err != nil {
			return nil, invalid(op, err)
		}
		cl.query = v.Encode()
	}
	cu := new(Customer)
	if err := c.do(ctx, cl, opts, cu); err != nil {
		return nil, err
	}
	return cu, nil
}

// UpdateCustomer changes the details of a customer, by the service's id or
// your ObjectReferenceID, and returns the customer as the service then
// holds it; only the fields set are sent. Like every customer write, it is not
// retried after it may have reached the service: on a timeout, read the
// customer with [Client.GetCustomer] before sending it again.
func (c *Client) UpdateCustomer(ctx context.Context, customerID string, req *UpdateCustomerRequest, opts ...RequestOption) (*Customer, error) {
	const op = "update customer"
	path, err := customerPath(customerID)
	form, err := validForm(op, req, checkAll(err, req.Validate()))
	if err != nil {
		return nil, err
	}
	cu := new(Customer)
	if err := c.do(ctx, postCustomer(op, "UpdateCustomer", "/customers/{customer_id}", path, form), opts, cu); err != nil {
		return nil, err
	}
	return cu, nil
}
