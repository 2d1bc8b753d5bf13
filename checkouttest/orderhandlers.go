package checkouttest

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"time"

	checkout "github.com/payorch/checkout-go"
)

// defaultLinkExpiry is the lifetime of a collection link whose request
// gives none.
const defaultLinkExpiry = 15 * time.Minute

// handleCreateOrder serves POST /orders. The form is read into a
// checkout.OrderRequest and refused exactly when its Validate refuses it;
// the version header, the content type and a repeated order_id with
// another amount are the service's own checks.
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
	amount, _ := req.Amount.Minor() // Validate let it through, so it reads
	o := &order{
		orderID: req.OrderID, amount: amount, currency: req.Currency,
		customerID: req.CustomerID, customerEmail: req.CustomerEmail, customerPhone: req.CustomerPhone,
		productID: req.ProductID, returnURL: req.ReturnURL, description: req.Description,
		webhookURL: req.WebhookURL, gatewayRef: req.GatewayReferenceID,
		status: StatusCreated, created: now, udf: map[string]string{}, metadata: map[string]string{},
	}
	o.keep(req.Extra)
	maps.Copy(o.udf, udfValues(req.UDFs))
	got := s.upsertOrder(p, o)
	if got == nil {
		p.write(w)
		return
	}
	s.mu.Lock()
	if got == o && req.CollectionLinks != nil {
		o.links = s.collectionLinks(o, req.CollectionLinks, now)
	}
	resp := createOrderResponse{orderHead: s.orderHead(got)}
	if req.CollectionLinks != nil && len(got.links) > 0 {
		resp.Links = &orderLinks{PaymentCollectionLinks: map[string]string{}}
		for k, l := range got.links {
			resp.Links.PaymentCollectionLinks[k] = l.URL
		}
	}
	if req.ClientAuthToken {
		resp.ClientAuth = &clientAuth{Token: got.clientAuthToken, Expiry: s.timestamp(got.clientTokenExpiry)}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// updateByCreate applies a create form to the order it names, if there is
// one, as the older /order/create does; a refusal is returned to write.
func (s *Server) updateByCreate(req *checkout.OrderRequest) func(http.ResponseWriter) {
	amount, _ := req.Amount.Minor()
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[req.OrderID]
	switch {
	case o == nil:
		return nil
	case o.status == StatusCharged && o.amount != amount:
		p := &problems{}
		p.bad("amount", fmt.Sprintf("order %q is already %s and cannot be changed", req.OrderID, StatusCharged))
		return p.write
	}
	o.amount = amount
	o.keep(req.Extra)
	maps.Copy(o.udf, udfValues(req.UDFs))
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

// collectionLinks makes the links asked for: the PAY method's link is
// answered as INTENT, QR as QR; a method the service does not know makes
// none, and a link without a positive lifetime lives defaultLinkExpiry.
func (s *Server) collectionLinks(o *order, req *checkout.CollectionLinks, now time.Time) map[string]CollectionLink {
	out := map[string]CollectionLink{}
	for _, l := range req.Links {
		var key, kind string
		switch l.Method {
		case checkout.CollectionPay:
			key, kind = "INTENT", "intent"
		case checkout.CollectionQR:
			key, kind = "QR", "qr"
		default:
			continue
		}
		life := l.Expiry
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

// handleUpdateOrder serves POST /orders/{order_id}: the form is read into
// a checkout.UpdateOrderRequest and refused exactly when its Validate
// refuses it. A new amount, udf1…udf10 and metadata.<key> change the
// order; the reply is the order status. A charged order is not changed.
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
		if req.Amount != "" {
			o.amount, _ = req.Amount.Minor() // Validate let it through, so it reads
		}
		o.keep(req.Extra)
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
