package checkouttest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// orderFormKeys are the form keys of POST /orders and how each
// is checked; metadata.<GATEWAY>:<key> and udf1…udf10 are accepted too.
var orderFormKeys = map[string]func(*problems, string, string){
	"order_id":       nonEmptyForm,
	"amount":         amountForm,
	"currency":       func(p *problems, k, v string) { checkCurrency(p, k, v) },
	"customer_id":    nil,
	"customer_email": nil,
	"customer_phone": nil,
	"product_id":     nil,
	"return_url": func(p *problems, k, v string) {
		if v != "" {
			checkAbsoluteURL(p, k, v)
		}
	},
	"description":                         nil,
	"billing_address_first_name":          nil,
	"billing_address_last_name":           nil,
	"billing_address_line1":               nil,
	"billing_address_line2":               nil,
	"billing_address_line3":               nil,
	"billing_address_city":                nil,
	"billing_address_state":               nil,
	"billing_address_country":             nil,
	"billing_address_postal_code":         nil,
	"billing_address_phone":               nil,
	"billing_address_country_code_iso":    nil,
	"shipping_address_first_name":         nil,
	"shipping_address_last_name":          nil,
	"shipping_address_line1":              nil,
	"shipping_address_line2":              nil,
	"shipping_address_line3":              nil,
	"shipping_address_city":               nil,
	"shipping_address_state":              nil,
	"shipping_address_postal_code":        nil,
	"shipping_address_phone":              nil,
	"shipping_address_country_code_iso":   nil,
	"shipping_address_country":            nil,
	"metadata.subvention_amount":          amountForm,
	keyGatewayRef:                         nonEmptyForm,
	keyWebhookURL:                         func(p *problems, k, v string) { checkWebhookURLField(p, k, v) },
	"options.get_client_auth_token":       formEnum("true", "false"),
	"options.get_payment_collection_link": formEnum("1", "0", "true", "false"),
	"payment_collection_link_details":     nil, // parsed in handleCreateOrder
}

func nonEmptyForm(p *problems, k, v string) {
	if v == "" {
		p.bad(k, "may not be empty")
	}
}

func amountForm(p *problems, k, v string) {
	if _, err := parseAmount(v); err != nil {
		p.bad(k, err.Error())
	}
}

func formEnum(values ...string) func(*problems, string, string) {
	check := enum(values...)
	return func(p *problems, k, v string) { check(p, k, v) }
}

// parseForm checks a form body: well-formed, each key once, known keys
// spelled with their exact case.
func parseForm(p *problems, r *http.Request, body []byte, known map[string]func(*problems, string, string)) url.Values {
	if mt := mediaType(r); mt != "application/x-www-form-urlencoded" {
		p.bad("Content-Type", fmt.Sprintf("must be application/x-www-form-urlencoded, got %q", r.Header.Get("Content-Type")))
		return nil
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		p.bad("body", "is not a well-formed form: "+err.Error())
		return nil
	}
	keys := sortedKeys(form)
	for _, k := range keys {
		if len(form[k]) > 1 {
			p.bad(k, fmt.Sprintf("is sent %d times", len(form[k])))
			continue
		}
		if check := known[k]; check != nil {
			check(p, k, form.Get(k))
		}
	}
	checkMiscased(p, keys, known)
	return form
}

func (s *Server) handleCreateOrder(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	vers := r.Header.Values("version")
	switch {
	case len(vers) == 0:
		p.miss("version")
	case len(vers) > 1:
		p.bad("version", "header is sent more than once")
	default:
		if err := checkVersion(vers[0]); err != nil {
			p.bad("version", "header "+err.Error())
		}
	}
	form := parseForm(p, r, body, orderFormKeys)
	if form == nil {
		p.write(w)
		return
	}
	requireKeys(p, form, "order_id", "amount")
	wantLinks := form.Get("options.get_payment_collection_link") == "1" || form.Get("options.get_payment_collection_link") == "true"
	var details linkDetails
	if raw, ok := form["payment_collection_link_details"]; ok && len(raw) == 1 {
		details = parseLinkDetails(p, raw[0])
	} else if wantLinks {
		p.miss("payment_collection_link_details")
	}
	if !p.empty() {
		p.write(w)
		return
	}
	now := s.now()
	amount, _ := parseAmount(form.Get("amount"))
	o := &order{
		orderID: form.Get("order_id"), amount: amount, currency: form.Get("currency"),
		customerID: form.Get("customer_id"), customerEmail: form.Get("customer_email"), customerPhone: form.Get("customer_phone"),
		productID: form.Get("product_id"), returnURL: form.Get("return_url"), description: form.Get("description"),
		webhookURL: form.Get(keyWebhookURL), gatewayRef: form.Get(keyGatewayRef),
		status: StatusCreated, created: now, udf: map[string]string{}, metadata: map[string]string{},
	}
	for k := range form {
		if strings.HasPrefix(k, "metadata.") && k != keyGatewayRef {
			o.metadata[strings.TrimPrefix(k, "metadata.")] = form.Get(k)
		} else if isUDF(k) {
			o.udf[k] = form.Get(k)
		}
	}
	got := s.upsertOrder(p, o)
	if got == nil {
		p.write(w)
		return
	}
	s.mu.Lock()
	if got == o && wantLinks {
		o.links = map[string]CollectionLink{}
		for method, mins := range details {
			key, kind := "QR", "qr"
			if method == "PAY" {
				key, kind = "INTENT", "intent"
			}
			exp := now.Add(time.Duration(mins) * time.Minute).UTC().Truncate(time.Second)
			o.links[key] = CollectionLink{
				URL:       s.URL + "/links/" + kind + "/" + url.PathEscape(o.id) + "?expires_at=" + url.QueryEscape(exp.Format(time.RFC3339)),
				ExpiresAt: exp,
			}
		}
	}
	resp := createOrderResponse{
		Status: got.status, StatusID: statusIDs[got.status], ID: got.id, OrderID: got.orderID,
		PaymentLinks: s.paymentLinks(got),
	}
	if wantLinks && len(got.links) > 0 {
		resp.Links = &orderLinks{PaymentCollectionLinks: map[string]string{}}
		for k, l := range got.links {
			resp.Links.PaymentCollectionLinks[k] = l.URL
		}
	}
	if form.Get("options.get_client_auth_token") == "true" {
		resp.ClientAuth = &clientAuth{Token: got.clientAuthToken, Expiry: s.timestamp(got.clientTokenExpiry)}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// createOrderResponse has the shape of the published order-create replies.
type createOrderResponse struct {
	Status       string       `json:"status"`
	StatusID     int          `json:"status_id"`
	ID           string       `json:"id"`
	OrderID      string       `json:"order_id"`
	PaymentLinks paymentLinks `json:"payment_links"`
	Links        *orderLinks  `json:"links,omitempty"`
	ClientAuth   *clientAuth  `json:"juspay,omitempty"`
}

type orderLinks struct {
	PaymentCollectionLinks map[string]string `json:"payment_collection_links"`
}

type clientAuth struct {
	Token  string `json:"client_auth_token"`
	Expiry string `json:"client_auth_token_expiry"`
}

// optionalVersion checks the version header of the calls where the spec
// does not ask for one: absent is fine, present must be one date.
func optionalVersion(p *problems, r *http.Request) {
	if vers := r.Header.Values("version"); len(vers) > 0 {
		if err := checkVersion(vers[0]); err != nil || len(vers) > 1 {
			p.bad("version", "header must be one date YYYY-MM-DD")
		}
	}
}

func (s *Server) handleGetOrder(w http.ResponseWriter, r *http.Request, _ []byte, orderID string) {
	p := &problems{}
	if optionalVersion(p, r); !p.empty() {
		p.write(w)
		return
	}
	s.mu.Lock()
	o := s.orders[orderID]
	var v orderView
	if o != nil {
		v = s.view(o)
	}
	s.mu.Unlock()
	if o == nil {
		writeNotFound(w, orderID)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

var refundFormKeys = map[string]func(*problems, string, string){
	"unique_request_id": nonEmptyForm,
	"amount":            amountForm,
}

func (s *Server) handleRefund(w http.ResponseWriter, r *http.Request, body []byte, orderID string) {
	p := &problems{}
	optionalVersion(p, r)
	form := parseForm(p, r, body, refundFormKeys)
	if form == nil {
		p.write(w)
		return
	}
	requireKeys(p, form, "unique_request_id", "amount")
	if !p.empty() {
		p.write(w)
		return
	}
	amount, _ := parseAmount(form.Get("amount"))
	id := form.Get("unique_request_id")
	s.mu.Lock()
	o := s.orders[orderID]
	if o == nil {
		s.mu.Unlock()
		writeNotFound(w, orderID)
		return
	}
	if o.status != StatusCharged {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, errBody{
			Status: "ERROR", ErrorCode: "No txn Found", ErrorMessage: "No successfull txn found for given order_id ",
			ErrorInfo: &errorInfo{DeveloperMessage: "No successfull txn found for given order_id",
				UserMessage: "Cannot process your request as no transaction found for this order.", Code: "RESOURCE_NOT_FOUND"},
		})
		return
	}
	for _, rf := range o.refunds {
		if rf.uniqueRequestID == id {
			p.bad("unique_request_id", fmt.Sprintf("a refund with unique_request_id %q already exists", id))
		}
	}
	if left := o.amount - o.refunded(); amount > left && p.empty() {
		p.bad("amount", fmt.Sprintf("refund of %s exceeds the refundable amount %s", amountText(amount), amountText(left)))
	}
	if !p.empty() {
		s.mu.Unlock()
		p.write(w)
		return
	}
	o.refunds = append(o.refunds, &refund{uniqueRequestID: id, amount: amount, status: RefundPending, created: s.now()})
	v := s.view(o)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// serveLinkPage serves the payment page and collection links the fake
// hands out, so that a test can load them: 200 while valid, 410 after the
// link's expiry, 404 for an unknown order.
func (s *Server) serveLinkPage(w http.ResponseWriter, r *http.Request, parts []string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	id, kind := parts[1], "payment page"
	if parts[0] == "links" {
		id, kind = parts[2], parts[1]
	}
	s.mu.Lock()
	var o *order
	for _, cand := range s.orders {
		if cand.id == id {
			o = cand
			break
		}
	}
	var link CollectionLink
	found := o != nil
	if o != nil && parts[0] == "links" {
		key := map[string]string{"qr": "QR", "intent": "INTENT"}[kind]
		link, found = o.links[key]
	}
	var text string
	if found {
		text = fmt.Sprintf("checkouttest %s for order %s, amount %s %s\n", kind, o.orderID, amountText(o.amount), o.currency)
	}
	s.mu.Unlock()
	switch {
	case !found:
		http.Error(w, "no such link", http.StatusNotFound)
	case !link.ExpiresAt.IsZero() && !s.now().Before(link.ExpiresAt):
		http.Error(w, "link expired", http.StatusGone)
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte(text))
	}
}
