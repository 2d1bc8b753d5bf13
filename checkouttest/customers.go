package checkouttest

import (
	"net/http"
	"time"

	checkout "github.com/payorch/checkout-go"
)

// The customer calls: the customer object the service keeps for a
// merchant. Each form is read into the request type of package checkout
// and refused exactly when its Validate refuses it; each reply is a
// checkout.Customer as the service writes one.

// customerLocked returns the customer whose id or object_reference_id is
// id, nil when there is none. Called with s.mu held.
func (s *Server) customerLocked(id string) *checkout.Customer {
	if c := s.customers[id]; c != nil {
		return c
	}
	for _, c := range s.customers {
		if c.ObjectReferenceID == id {
			return c
		}
	}
	return nil
}

// handleCreateCustomer serves POST /customers.
func (s *Server) handleCreateCustomer(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	req, ok := formOK(w, p, r, body, readCreateCustomer)
	if !ok {
		return
	}
	now := s.now().UTC().Truncate(time.Second)
	s.mu.Lock()
	if s.customerLocked(req.ObjectReferenceID) != nil {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, errBody{
			Status: "invalid_request_error", ErrorCode: "unique",
			ErrorMessage: "Customer with given object reference id already exist for your account.",
			ErrorInfo: &errorInfo{Category: "USER_ERROR", DeveloperMessage: "Customer account with given object reference already exists.",
				UserMessage: "Already exists.", Code: "ALREADY_EXISTS"},
		})
		return
	}
	c := &checkout.Customer{
		ID: newID("cst_"), Object: "customer", ObjectReferenceID: req.ObjectReferenceID,
		DateCreated: checkout.Timestamp{Time: now}, LastUpdated: checkout.Timestamp{Time: now},
	}
	setDetails(c, checkout.UpdateCustomerRequest{MobileNumber: req.MobileNumber, EmailAddress: req.EmailAddress,
		FirstName: req.FirstName, LastName: req.LastName, MobileCountryCode: req.MobileCountryCode})
	s.customers[c.ID] = c
	reply := *c
	s.mu.Unlock()
	s.writeCustomer(w, reply, req.ClientAuthToken)
}

// handleGetCustomer serves GET /customers/{id}, by the service's id or the
// merchant's object_reference_id; the query may ask for a client auth
// token.
func (s *Server) handleGetCustomer(w http.ResponseWriter, r *http.Request, _ []byte, id string) {
	q, _, err := readValues(r.URL.Query(), readCustomerQuery)
	if err != nil {
		p := &problems{}
		p.refuse(err, formDoc(r.URL.Query()))
		p.write(w)
		return
	}
	s.mu.Lock()
	c := s.customerLocked(id)
	var reply checkout.Customer
	if c != nil {
		reply = *c
	}
	s.mu.Unlock()
	if c == nil {
		writeCustomerNotFound(w)
		return
	}
	s.writeCustomer(w, reply, q.ClientAuthToken)
}

// handleUpdateCustomer serves POST /customers/{id}: the details sent
// replace the customer's.
func (s *Server) handleUpdateCustomer(w http.ResponseWriter, r *http.Request, body []byte, id string) {
	p := &problems{}
	req, ok := formOK(w, p, r, body, readCustomerDetails)
	if !ok {
		return
	}
	s.mu.Lock()
	c := s.customerLocked(id)
	var reply checkout.Customer
	if c != nil {
		setDetails(c, *req)
		c.LastUpdated = checkout.Timestamp{Time: s.now().UTC().Truncate(time.Second)}
		reply = *c
	}
	s.mu.Unlock()
	if c == nil {
		writeCustomerNotFound(w)
		return
	}
	s.writeCustomer(w, reply, false)
}

// setDetails copies the details that are set onto the customer's fields
// of the same names.
func setDetails(c *checkout.Customer, d checkout.UpdateCustomerRequest) {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&c.MobileNumber, d.MobileNumber}, {&c.EmailAddress, d.EmailAddress}, {&c.FirstName, d.FirstName},
		{&c.LastName, d.LastName}, {&c.MobileCountryCode, d.MobileCountryCode},
	} {
		if f.src != "" {
			*f.dst = f.src
		}
	}
}

// writeCustomer answers c, with a fresh client auth token when asked.
func (s *Server) writeCustomer(w http.ResponseWriter, c checkout.Customer, token bool) {
	if token {
		c.ClientAuthToken = checkout.Secret(newID("tkn_"))
		c.ClientAuthTokenExpiry = checkout.Timestamp{Time: s.now().UTC().Truncate(time.Second).Add(15 * time.Minute)}
	}
	writeJSON(w, http.StatusOK, c)
}

// writeCustomerNotFound answers an unknown customer as the service does:
// 404 object_not_found.
func writeCustomerNotFound(w http.ResponseWriter) {
	writeError(w, http.StatusNotFound, errBody{
		Status: "invalid_request_error", ErrorCode: "object_not_found", ErrorMessage: "Cannot find what you are looking for",
		ErrorInfo: &errorInfo{Category: "USER_ERROR", DeveloperMessage: "Customer account not found.",
			UserMessage: "Cannot process your request as customer account not found.", Code: "RESOURCE_NOT_FOUND"},
	})
}
