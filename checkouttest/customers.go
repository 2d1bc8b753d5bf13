package checkouttest

import (
	"net/http"
	"time"
)

// The customer calls: the customer object the service keeps for a
// merchant. Each form is read as the service reads it (readCustomer); each
// reply is the fake's own customer, in the shape the service writes one.

// customer is a customer as the fake keeps and answers it.
type customer struct {
	ID                string      `json:"id"`
	Object            string      `json:"object"`
	ObjectReferenceID string      `json:"object_reference_id"`
	MobileNumber      string      `json:"mobile_number,omitempty"`
	MobileCountryCode string      `json:"mobile_country_code,omitempty"`
	EmailAddress      string      `json:"email_address,omitempty"`
	FirstName         string      `json:"first_name,omitempty"`
	LastName          string      `json:"last_name,omitempty"`
	DateCreated       string      `json:"date_created"`
	LastUpdated       string      `json:"last_updated"`
	ClientAuth        *clientAuth `json:"juspay,omitempty"`
}

// setDetails copies the details sent onto the customer.
func (c *customer) setDetails(d map[string]string) {
	for k, dst := range map[string]*string{
		"mobile_number": &c.MobileNumber, "email_address": &c.EmailAddress, "first_name": &c.FirstName,
		"last_name": &c.LastName, "mobile_country_code": &c.MobileCountryCode,
	} {
		if v, ok := d[k]; ok {
			*dst = v
		}
	}
}

// customerLocked returns the customer whose id or object_reference_id is
// id, nil when there is none. Called with s.mu held.
func (s *Server) customerLocked(id string) *customer {
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
	req, ok := formOK(w, &problems{}, r, body, func(f *formIn) *customerIn { return readCustomer(f, true) })
	if !ok {
		return
	}
	now := s.timestamp(s.now())
	s.mu.Lock()
	if s.customerLocked(req.objectReferenceID) != nil {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, errBody{
			Status: "invalid_request_error", ErrorCode: "unique",
			ErrorMessage: "Customer with given object reference id already exist for your account.",
			ErrorInfo: &errorInfo{Category: "USER_ERROR", DeveloperMessage: "Customer account with given object reference already exists.",
				UserMessage: "Already exists.", Code: "ALREADY_EXISTS"},
		})
		return
	}
	c := &customer{ID: newID("cst_"), Object: "customer", ObjectReferenceID: req.objectReferenceID, DateCreated: now, LastUpdated: now}
	c.setDetails(req.details)
	s.customers[c.ID] = c
	reply := *c
	s.mu.Unlock()
	s.writeCustomer(w, reply, req.clientAuthToken)
}

// handleGetCustomer serves GET /customers/{id}, by the service's id or the
// merchant's object_reference_id; the query may ask for a client auth
// token (options.get_client_auth_token=true).
func (s *Server) handleGetCustomer(w http.ResponseWriter, r *http.Request, _ []byte, id string) {
	p := &problems{}
	q := &formIn{form: r.URL.Query(), p: p}
	token := q.flag("options.get_client_auth_token")
	q.done()
	if !p.empty() {
		p.write(w)
		return
	}
	s.mu.Lock()
	c := s.customerLocked(id)
	var reply customer
	if c != nil {
		reply = *c
	}
	s.mu.Unlock()
	if c == nil {
		writeCustomerNotFound(w)
		return
	}
	s.writeCustomer(w, reply, token)
}

// handleUpdateCustomer serves POST /customers/{id}: the details sent
// replace the customer's.
func (s *Server) handleUpdateCustomer(w http.ResponseWriter, r *http.Request, body []byte, id string) {
	req, ok := formOK(w, &problems{}, r, body, func(f *formIn) *customerIn { return readCustomer(f, false) })
	if !ok {
		return
	}
	s.mu.Lock()
	c := s.customerLocked(id)
	var reply customer
	if c != nil {
		c.setDetails(req.details)
		c.LastUpdated = s.timestamp(s.now())
		reply = *c
	}
	s.mu.Unlock()
	if c == nil {
		writeCustomerNotFound(w)
		return
	}
	s.writeCustomer(w, reply, false)
}

// writeCustomer answers c, with a fresh client auth token when asked.
func (s *Server) writeCustomer(w http.ResponseWriter, c customer, token bool) {
	if token {
		c.ClientAuth = &clientAuth{Token: newID("tkn_"), Expiry: s.timestamp(s.now().Add(15 * time.Minute))}
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
