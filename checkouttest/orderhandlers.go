package checkouttest

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/payorch/checkout-go/validation"
)

// defaultLinkExpiry is the lifetime of a collection link whose request
// gives none.
const defaultLinkExpiry = 15 * time.Minute

// handleCreateOrder serves POST /orders: the version header, the form
// (readOrder), and a repeated order_id with another amount are checked.
func (s *Server) handleCreateOrder(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	switch vers := r.Header.Values("version"); {
	case len(vers) == 0:
		p.miss("version")
	case len(vers) > 1:
		p.bad("version", "header is sent more than once")
	default:
		if err := checkVersion(vers[0]); err != nil {
			p.bad("version", "header "+err.Error())
		}
	}
	s.createOrder(w, r, body, p, false)
}

// handleOrderCreate serves the older POST /order/create of the official
// PHP and Python SDKs: POST /orders with an optional version header,
// where an existing order_id updates that order instead of being refused.
func (s *Server) handleOrderCreate(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	optionalVersion(p, r)
	s.createOrder(w, r, body, p, true)
}

// createOrder makes the order of a create form, or with update changes
// the existing order of that order_id (its amount unless it is charged,
// its udf and metadata fields), and answers it.
func (s *Server) createOrder(w http.ResponseWriter, r *http.Request, body []byte, p *problems, update bool) {
	req, ok := formOK(w, p, r, body, readOrder)
	if !ok {
		return
	}
	if update {
		if refuse := s.updateByCreate(req); refuse != nil {
			refuse(w)
			return
		}
	}
	now := s.now()
	o := &order{
		orderID: req.orderID, amount: req.amount, currency: req.currency,
		customerID: req.customerID, customerEmail: req.customerEmail, customerPhone: req.customerPhone,
		productID: req.productID, returnURL: req.returnURL, description: req.description,
		webhookURL: req.webhookURL, gatewayRef: req.gatewayRef,
		status: StatusCreated, created: now, udf: req.udf, metadata: req.metadata,
	}
	got := s.upsertOrder(p, o)
	if got == nil {
		p.write(w)
		return
	}
	s.mu.Lock()
	if got == o && req.links != nil {
		o.links = s.collectionLinks(o, req.links, now)
	}
	resp := createOrderResponse{orderHead: s.orderHead(got)}
	if req.links != nil && len(got.links) > 0 {
		resp.Links = &orderLinks{PaymentCollectionLinks: map[string]string{}}
		for k, l := range got.links {
			resp.Links.PaymentCollectionLinks[k] = l.URL
		}
	}
	if req.clientAuthToken {
		resp.ClientAuth = &clientAuth{Token: got.clientAuthToken, Expiry: s.timestamp(got.clientTokenExpiry)}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// updateByCreate applies a create form to the order it names, if there is
// one, as the older /order/create does; a refusal is returned to write.
func (s *Server) updateByCreate(req *orderIn) func(http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[req.orderID]
	switch {
	case o == nil:
		return nil
	case o.status == StatusCharged && o.amount != req.amount:
		p := &problems{}
		p.bad("amount", fmt.Sprintf("order %q is already %s and cannot be changed", req.orderID, StatusCharged))
		return p.write
	}
	o.amount = req.amount
	maps.Copy(o.udf, req.udf)
	maps.Copy(o.metadata, req.metadata)
	return nil
}

// handleOrderStatus serves the older GET /order/status?order_id=…: the
// answer of GET /orders/{order_id}.
func (s *Server) handleOrderStatus(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	orderID := r.URL.Query().Get("order_id")
	if orderID == "" {
		p := &problems{}
		p.miss("order_id")
		p.write(w)
		return
	}
	s.handleGetOrder(w, r, body, orderID)
}

// linkIn is one payment collection link a form asks for: its method and
// its lifetime (0: the default).
type linkIn struct {
	method string
	expiry time.Duration
}

// collectionMethods are the supported_payment_methods values of spec §2.7.
var collectionMethods = []string{"PAY", "QR"}

// readLinks reads payment_collection_link_details, JSON text at path: the
// supported_payment_methods (PAY, QR) and, for some of them, expiry_details
// entries of payment_method and expiry_in_mins (whole minutes, as text).
func readLinks(p *problems, path, text string) []linkIn {
	doc, ok := parseJSON(&problems{}, []byte(text))
	if !ok {
		p.bad(path, "must be JSON text holding an object")
		return nil
	}
	o, ok := asObject(p, path, doc)
	if !ok {
		return nil
	}
	if !o.has("supported_payment_methods") {
		o.p.miss(o.at("supported_payment_methods"))
	}
	methods, _ := o.texts("supported_payment_methods")
	links := []linkIn{}
	for i, m := range methods {
		if msg := enumProblem(m, collectionMethods, true); msg != "" {
			p.bad(validation.Index(o.at("supported_payment_methods"), i), msg)
			continue
		}
		links = append(links, linkIn{method: m})
	}
	timed := make([]bool, len(links))
	for _, e := range o.objects("expiry_details", false) {
		m, okM := e.enum("payment_method", true, collectionMethods, true)
		mins, okN := e.text("expiry_in_mins", true)
		if okN && !isDigits(mins) {
			p.bad(e.at("expiry_in_mins"), strconv.Quote(mins)+" is not a whole number of minutes")
			okN = false
		}
		j := -1 // the first link of the method without an expiry yet
		for k, l := range links {
			if l.method == m && !timed[k] {
				j = k
				break
			}
		}
		switch {
		case okM && j < 0:
			p.bad(e.at("payment_method"), strconv.Quote(m)+" has no link of its own in supported_payment_methods")
		case okM && okN:
			n, _ := strconv.ParseInt(mins, 10, 32)
			links[j].expiry, timed[j] = time.Duration(n)*time.Minute, true
		}
		e.done()
	}
	o.done()
	return links
}

// collectionLinks makes the links asked for: the PAY method's link is
// answered as INTENT, QR as QR; a link without a positive lifetime lives
// defaultLinkExpiry.
func (s *Server) collectionLinks(o *order, links []linkIn, now time.Time) map[string]CollectionLink {
	out := map[string]CollectionLink{}
	for _, l := range links {
		key, kind := "QR", "qr"
		if l.method == "PAY" {
			key, kind = "INTENT", "intent"
		}
		life := l.expiry
		if life <= 0 {
			life = defaultLinkExpiry
		}
		exp := now.Add(life).UTC().Truncate(time.Second)
		out[key] = CollectionLink{
			URL:       s.URL + "/links/" + kind + "/" + url.PathEscape(o.id) + "?expires_at=" + url.QueryEscape(exp.Format(time.RFC3339)),
			ExpiresAt: exp,
		}
	}
	return out
}

// createOrderResponse has the shape of the published order-create replies.
type createOrderResponse struct {
	orderHead
	Links      *orderLinks `json:"links,omitempty"`
	ClientAuth *clientAuth `json:"juspay,omitempty"`
}

type orderLinks struct {
	PaymentCollectionLinks map[string]string `json:"payment_collection_links"`
}

type clientAuth struct {
	Token  string `json:"client_auth_token"`
	Expiry string `json:"client_auth_token_expiry"`
}

// checkVersion checks the version header: a date YYYY-MM-DD.
func checkVersion(v string) error {
	if _, err := time.Parse(time.DateOnly, v); err != nil || len(v) != len(time.DateOnly) {
		return fmt.Errorf("%q is not a date YYYY-MM-DD", v)
	}
	return nil
}

// optionalVersion checks the version header of the calls where the
// service does not ask for one: absent is fine, present must be one date.
func optionalVersion(p *problems, r *http.Request) {
	if vers := r.Header.Values("version"); len(vers) > 0 {
		if err := checkVersion(vers[0]); err != nil || len(vers) > 1 {
			p.bad("version", "header must be one date YYYY-MM-DD")
		}
	}
}

// handleGetOrder serves GET /orders/{order_id}: the order's status, 404
// for an order the fake does not hold; a version header may be sent but
// must then be one date.
func (s *Server) handleGetOrder(w http.ResponseWriter, r *http.Request, _ []byte, orderID string) {
	p := &problems{}
	if optionalVersion(p, r); !p.empty() {
		p.write(w)
		return
	}
	s.answerOrder(w, orderID, nil)
}

// answerOrder answers the status of the order with the merchant's
// orderID, after change (when not nil) ran on it with s.mu held. An
// unknown order is answered 404 as the service does; a change that
// returns a refusal has that written instead of the status.
func (s *Server) answerOrder(w http.ResponseWriter, orderID string, change func(*order) (refuse func(http.ResponseWriter))) {
	s.mu.Lock()
	o := s.orders[orderID]
	if o == nil {
		s.mu.Unlock()
		writeNotFound(w, orderID)
		return
	}
	if change != nil {
		if refuse := change(o); refuse != nil {
			s.mu.Unlock()
			refuse(w)
			return
		}
	}
	v := s.view(o)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// handleUpdateOrder serves POST /orders/{order_id}: a new amount,
// udf1…udf10 and metadata.<key> change the order; the reply is the order
// status. A charged order is not changed.
func (s *Server) handleUpdateOrder(w http.ResponseWriter, r *http.Request, body []byte, orderID string) {
	req, ok := versionedFormOK(w, r, body, readUpdateOrder)
	if !ok {
		return
	}
	s.answerOrder(w, orderID, func(o *order) func(http.ResponseWriter) {
		if o.status == StatusCharged {
			p := &problems{}
			p.bad("order_id", fmt.Sprintf("order %q is already %s and cannot be changed", orderID, StatusCharged))
			return p.write
		}
		if req.hasAmount {
			o.amount = req.amount
		}
		maps.Copy(o.udf, req.udf)
		maps.Copy(o.metadata, req.metadata)
		return nil
	})
}

// serveLinkPage serves the collection links the fake hands out, so that a
// test can load them: 200 while valid, 410 after the link's expiry, 404
// for an unknown order. The payment page is page.go's.
func (s *Server) serveLinkPage(w http.ResponseWriter, r *http.Request, parts []string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	id, kind := parts[2], parts[1]
	s.mu.Lock()
	o := s.orderByID(id)
	var link CollectionLink
	found := false
	if o != nil {
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
