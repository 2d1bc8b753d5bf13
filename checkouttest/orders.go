package checkouttest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Order statuses the fake uses: the "status" of the order status, with its
// "status_id". CREATED and STARTED are documented; the others are the
// service's published samples' (conformance/orders/).
const (
	// StatusCreated (status_id 1) is a new order made by POST /orders.
	StatusCreated = "CREATED"
	// StatusNew (status_id 10) is a new order made by POST /session.
	StatusNew = "NEW"
	// StatusStarted (status_id 20) is an order whose payment was tried with
	// a gateway reference id no configuration holds.
	StatusStarted = "STARTED"
	// StatusCharged (status_id 21) is an order paid by Pay or PayWith.
	StatusCharged = "CHARGED"
	// StatusPendingVBV (status_id 23) is an order whose payment the
	// payment page left pending, waiting for the customer's
	// authentication; Pay, PayWith and Fail can still finish it.
	StatusPendingVBV = "PENDING_VBV"
	// StatusAuthorizationFailed (status_id 27) is an order whose payment
	// Fail failed.
	StatusAuthorizationFailed = "AUTHORIZATION_FAILED"
)

// statusID returns the service's id of an order status the fake uses.
func statusID(status string) int {
	switch status {
	case StatusCreated:
		return 1
	case StatusNew:
		return 10
	case StatusStarted:
		return 20
	case StatusCharged:
		return 21
	case StatusPendingVBV:
		return 23
	case StatusAuthorizationFailed:
		return 27
	}
	return 0
}

// Refund statuses: the "status" of an element of the order status's
// "refunds", as in the service's published samples.
const (
	// RefundPending is a refund just made by POST
	// /orders/{order_id}/refunds.
	RefundPending = "PENDING"
	// RefundSuccess is a refund RefundCompleted completed.
	RefundSuccess = "SUCCESS"
	// RefundFailure is a refund RefundFailed failed; its amount is
	// refundable again.
	RefundFailure = "FAILURE"
)

// dummyGatewayID is the gateway_id of the service's DUMMY test gateway.
const dummyGatewayID = 100

type order struct {
	id, orderID       string
	amount            int64
	currency          string
	customerID        string
	customerEmail     string
	customerPhone     string
	productID         string
	returnURL         string
	description       string
	clientID          string
	udf               map[string]string
	metadata          map[string]string // request keys metadata.X without the prefix
	webhookURL        string
	gatewayRef        string
	status            string
	created           time.Time
	links             map[string]CollectionLink // response key (QR, INTENT) → link
	clientAuthToken   string
	clientTokenExpiry time.Time
	expiry            time.Time // order_expiry: when the order stops taking payments
	txns              int
	txn               *txn
	refunds           []*refund
	page              *pageSetup // what the session asked the payment page to show (page.go); nil for POST /orders
}

type txn struct {
	id, uuid   string
	status     string
	methodType string
	method     string
	gateway    string
	gatewayID  int
	created    time.Time
	errCode    string
	errMessage string
}

type refund struct {
	uniqueRequestID string
	amount          int64
	status          string
	created         time.Time
	ref             string
	txnID           string // the transaction refunded
	refundType      string // STANDARD, INSTANT, …
}

// Order is a snapshot of an order's state in the fake.
type Order struct {
	// ID is the service's order id, "id" of the order status ("ordeh_…").
	ID string
	// OrderID is the merchant's order id, "order_id".
	OrderID string
	// Status is the order's "status": StatusCreated, StatusNew,
	// StatusStarted, StatusCharged, StatusPendingVBV or
	// StatusAuthorizationFailed.
	Status string
	// StatusID is the order's numeric "status_id" (CREATED 1, NEW 10,
	// STARTED 20, CHARGED 21, PENDING_VBV 23, AUTHORIZATION_FAILED 27).
	StatusID int
	// Amount is the order's "amount", a decimal with two places ("100.00").
	Amount string
	// AmountRefunded is "amount_refunded": the sum of the refunds that
	// succeeded or are pending, a decimal with two places ("0.00").
	AmountRefunded string
	// Currency is the order's "currency", for example "INR".
	Currency string
	// WebhookURL is the order's metadata.webhook_url, if any.
	WebhookURL string
	// GatewayReferenceID is metadata.SERVICE:gateway_reference_id, if any.
	GatewayReferenceID string
	// Gateway is the gateway of the latest payment attempt ("gateway" of
	// the txn_detail), "" before any attempt.
	Gateway string
	// TxnID is the latest payment attempt's "txn_id", "" before any.
	TxnID string
	// TxnStatus is the latest payment attempt's "status" in txn_detail,
	// for example "CHARGED", "AUTHORIZATION_FAILED" or "STARTED"; "" before
	// any attempt.
	TxnStatus string
	// Metadata holds the request's metadata.<key> text keys, without the
	// prefix ("PAYU:offer_key"; the webhook URL and the gateway reference
	// id are WebhookURL and GatewayReferenceID), plus
	// "<GATEWAY>:gateway_reference_id" once a payment was routed.
	Metadata map[string]string
	// CollectionLinks are the payment collection links by response key (QR,
	// INTENT), with the expiry asked for by expiry_in_mins.
	CollectionLinks map[string]CollectionLink
	// Refunds in the order they were made.
	Refunds []Refund
	// Created is when the order was made.
	Created time.Time
	// Expiry is the order's "order_expiry": Created plus
	// Config.OrderExpiry.
	Expiry time.Time
	// Raw is the order status JSON that GET /orders/{order_id} answers now.
	Raw json.RawMessage
}

// CollectionLink is one payment collection link (QR or intent). The URL is
// served by the fake until ExpiresAt (410 Gone after), and carries the
// expiry as its expires_at query parameter.
type CollectionLink struct {
	// URL is the link POST /orders answered under
	// links.payment_collection_links.
	URL string
	// ExpiresAt is when the link stops working: the order's creation plus
	// the link's expiry_in_mins, to the second.
	ExpiresAt time.Time
}

// Refund is a snapshot of one refund.
type Refund struct {
	// UniqueRequestID is the merchant's "unique_request_id" of the refund
	// request, which names it to RefundCompleted and RefundFailed.
	UniqueRequestID string
	// Amount is the refund's "amount", a decimal with two places ("25.00").
	Amount string
	// Status is the refund's "status": RefundPending, RefundSuccess or
	// RefundFailure.
	Status string
}

// Order returns a snapshot of the order with the merchant's order_id.
func (s *Server) Order(orderID string) (Order, error) {
	if !s.started() {
		return Order{}, ErrNotStarted
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[orderID]
	if o == nil {
		return Order{}, fmt.Errorf("%w: %q", ErrUnknownOrder, orderID)
	}
	raw, err := json.Marshal(s.view(o))
	if err != nil {
		return Order{}, err
	}
	out := Order{
		ID: o.id, OrderID: o.orderID, Status: o.status, StatusID: statusID(o.status),
		Amount: amountText(o.amount), AmountRefunded: amountText(o.refunded()), Currency: o.currency,
		WebhookURL: o.webhookURL, GatewayReferenceID: o.gatewayRef,
		Metadata: cloneMap(o.metadata), Created: o.created, Expiry: o.expiry, Raw: raw,
	}
	if len(o.links) > 0 {
		out.CollectionLinks = make(map[string]CollectionLink, len(o.links))
		for k, v := range o.links {
			out.CollectionLinks[k] = v
		}
	}
	if o.txn != nil {
		out.Gateway, out.TxnID, out.TxnStatus = o.txn.gateway, o.txn.id, o.txn.status
	}
	for _, r := range o.refunds {
		out.Refunds = append(out.Refunds, Refund{UniqueRequestID: r.uniqueRequestID, Amount: amountText(r.amount), Status: r.status})
	}
	return out, nil
}

// refunded is the amount of the refunds that did not fail.
func (o *order) refunded() int64 {
	var n int64
	for _, r := range o.refunds {
		if r.status != RefundFailure {
			n += r.amount
		}
	}
	return n
}

// fullyRefunded is the order's "refunded": true once the refunds that did
// not fail (pending ones too, as the service's published reply shows)
// cover the whole amount; a partial refund leaves it false.
func (o *order) fullyRefunded() bool {
	n := o.refunded()
	return n > 0 && n >= o.amount
}

// amountText is minor units as decimal text with two places ("25.50").
func amountText(minor int64) string {
	return strconv.FormatInt(minor/100, 10) + "." + fmt.Sprintf("%02d", minor%100)
}

// amountNumber writes minor units as the JSON number the service's
// replies use: 2, 9000, 12.5.
func amountNumber(minor int64) json.Number {
	if minor%100 == 0 {
		return json.Number(strconv.FormatInt(minor/100, 10))
	}
	return json.Number(strings.TrimSuffix(fmt.Sprintf("%d.%02d", minor/100, minor%100), "0"))
}

func newID(prefix string) string {
	return prefix + strings.ReplaceAll(uuid.NewString(), "-", "")
}

func (s *Server) timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

type paymentLinks struct {
	Web      string `json:"web"`
	Mobile   string `json:"mobile,omitempty"`
	Iframe   string `json:"iframe,omitempty"`
	Expiry   string `json:"expiry,omitempty"`
	DeepLink string `json:"deep_link,omitempty"`
}

// upiDeepLink is the UPI intent link of o, as the service makes one for a
// session that asks for it (options.get_upi_deep_links).
func (s *Server) upiDeepLink(o *order) string {
	q := url.Values{"pa": {"checkouttest@upi"}, "pn": {"checkouttest"}, "tr": {o.id}, "am": {amountText(o.amount)}, "cu": {o.currency}}
	return "upi://pay?" + q.Encode()
}

func (s *Server) paymentLinks(o *order) paymentLinks {
	page := s.URL + "/orders/" + url.PathEscape(o.id) + "/payment-page"
	return paymentLinks{Web: page, Mobile: page + "?mobile=true", Iframe: page + "?iframe=true"}
}

// orderHead is what the order-create reply and the order status share.
type orderHead struct {
	Status         string       `json:"status"`
	StatusID       int          `json:"status_id"`
	ID             string       `json:"id"`
	OrderID        string       `json:"order_id"`
	PaymentLinks   paymentLinks `json:"payment_links"`
	MerchantID     string       `json:"merchant_id"`
	Amount         json.Number  `json:"amount"`
	AmountRefunded json.Number  `json:"amount_refunded"`
	Currency       string       `json:"currency"`
	CustomerID     string       `json:"customer_id"`
	CustomerEmail  string       `json:"customer_email"`
	CustomerPhone  string       `json:"customer_phone"`
	ProductID      string       `json:"product_id"`
	ReturnURL      string       `json:"return_url"`
	DateCreated    string       `json:"date_created"`
	Refunded       bool         `json:"refunded"`
	OrderExpiry    string       `json:"order_expiry"`
	udfView
}

func (s *Server) orderHead(o *order) orderHead {
	return orderHead{
		Status: o.status, StatusID: statusID(o.status), ID: o.id, OrderID: o.orderID,
		PaymentLinks: s.paymentLinks(o), MerchantID: s.merchantID,
		Amount: amountNumber(o.amount), AmountRefunded: amountNumber(o.refunded()), Currency: o.currency,
		CustomerID: o.customerID, CustomerEmail: o.customerEmail, CustomerPhone: o.customerPhone,
		ProductID: o.productID, ReturnURL: o.returnURL, DateCreated: s.timestamp(o.created),
		Refunded: o.fullyRefunded(), OrderExpiry: s.timestamp(o.expiry),
		udfView: udfViewOf(o.udf),
	}
}

// orderView is the order status JSON (conformance/orders/order_status_*.json).
type orderView struct {
	orderHead
	Description            string            `json:"description,omitempty"`
	TxnID                  string            `json:"txn_id,omitempty"`
	PaymentMethodType      string            `json:"payment_method_type,omitempty"`
	AuthType               string            `json:"auth_type,omitempty"`
	PaymentMethod          string            `json:"payment_method,omitempty"`
	EffectiveAmount        json.Number       `json:"effective_amount"`
	Refunds                []refundView      `json:"refunds,omitempty"`
	BankErrorCode          string            `json:"bank_error_code"`
	BankErrorMessage       string            `json:"bank_error_message"`
	TxnUUID                string            `json:"txn_uuid,omitempty"`
	TxnDetail              *txnView          `json:"txn_detail,omitempty"`
	PaymentGatewayResponse *pgResponse       `json:"payment_gateway_response,omitempty"`
	GatewayID              int               `json:"gateway_id,omitempty"`
	Metadata               map[string]string `json:"metadata,omitempty"`
	GatewayReferenceID     *string           `json:"gateway_reference_id"`
	Offers                 []any             `json:"offers"`
}

type txnView struct {
	TxnID           string      `json:"txn_id"`
	OrderID         string      `json:"order_id"`
	Status          string      `json:"status"`
	ErrorCode       string      `json:"error_code"`
	NetAmount       json.Number `json:"net_amount"`
	TxnAmount       json.Number `json:"txn_amount"`
	GatewayID       int         `json:"gateway_id,omitempty"`
	Currency        string      `json:"currency"`
	ExpressCheckout bool        `json:"express_checkout"`
	Redirect        bool        `json:"redirect"`
	TxnUUID         string      `json:"txn_uuid"`
	Gateway         string      `json:"gateway"`
	ErrorMessage    string      `json:"error_message"`
	Created         string      `json:"created"`
}

type pgResponse struct {
	RespCode    string `json:"resp_code"`
	RRN         string `json:"rrn"`
	Created     string `json:"created"`
	EPGTxnID    string `json:"epg_txn_id"`
	RespMessage string `json:"resp_message"`
	AuthIDCode  string `json:"auth_id_code"`
	TxnID       string `json:"txn_id"`
}

type refundView struct {
	ID              string      `json:"id"`
	Amount          json.Number `json:"amount"`
	UniqueRequestID string      `json:"unique_request_id"`
	Ref             string      `json:"ref"`
	Created         string      `json:"created"`
	Status          string      `json:"status"`
	ErrorMessage    string      `json:"error_message"`
	ErrorCode       string      `json:"error_code"`
	SentToGateway   bool        `json:"sent_to_gateway"`
	InitiatedBy     string      `json:"initiated_by"`
	RefundSource    string      `json:"refund_source"`
	RefundType      string      `json:"refund_type"`
}

// view renders the order status JSON. Called with s.mu held.
func (s *Server) view(o *order) orderView {
	v := orderView{
		orderHead: s.orderHead(o), Description: o.description,
		EffectiveAmount: amountNumber(o.amount), Offers: []any{},
	}
	if o.gatewayRef != "" {
		ref := o.gatewayRef
		v.GatewayReferenceID = &ref
	}
	if len(o.metadata) > 0 {
		v.Metadata = cloneMap(o.metadata)
	}
	if t := o.txn; t != nil {
		v.TxnID, v.TxnUUID = t.id, t.uuid
		v.PaymentMethodType, v.PaymentMethod = t.methodType, t.method
		if t.methodType == "CARD" {
			v.AuthType = "THREE_DS"
		}
		v.BankErrorCode, v.BankErrorMessage = t.errCode, t.errMessage
		v.GatewayID = t.gatewayID
		v.TxnDetail = &txnView{
			TxnID: t.id, OrderID: o.orderID, Status: t.status, ErrorCode: t.errCode,
			NetAmount: amountNumber(o.amount), TxnAmount: amountNumber(o.amount), GatewayID: t.gatewayID,
			Currency: o.currency, ExpressCheckout: true, Redirect: true, TxnUUID: t.uuid, Gateway: t.gateway,
			ErrorMessage: t.errMessage, Created: s.timestamp(t.created),
		}
		if t.status != StatusStarted && t.status != StatusPendingVBV { // no gateway answer yet
			code, msg := "SUCCESS", "SUCCESS"
			if t.errCode != "" {
				code, msg = t.errCode, t.errMessage
			}
			v.PaymentGatewayResponse = &pgResponse{RespCode: code, RespMessage: msg, RRN: "000000", Created: s.timestamp(t.created),
				EPGTxnID: "pay_" + t.uuid, TxnID: t.id}
		}
	}
	for _, r := range o.refunds {
		rv := refundView{
			ID: r.uniqueRequestID, Amount: amountNumber(r.amount), UniqueRequestID: r.uniqueRequestID, Ref: r.ref,
			Created: s.timestamp(r.created), Status: r.status, InitiatedBy: "API", RefundType: r.refundType,
			SentToGateway: r.status != RefundPending,
		}
		if o.txn != nil {
			rv.RefundSource = o.txn.gateway
		}
		switch r.status {
		case RefundSuccess:
			rv.ErrorMessage, rv.ErrorCode = "Refund Success", "00"
		case RefundFailure:
			rv.ErrorMessage, rv.ErrorCode = "Refund Failed", "REFUND_FAILED"
		}
		v.Refunds = append(v.Refunds, rv)
	}
	return v
}

// udfView is udf1…udf10 as the service's order replies write them: every
// key, empty or not.
type udfView struct {
	UDF1  string `json:"udf1"`
	UDF2  string `json:"udf2"`
	UDF3  string `json:"udf3"`
	UDF4  string `json:"udf4"`
	UDF5  string `json:"udf5"`
	UDF6  string `json:"udf6"`
	UDF7  string `json:"udf7"`
	UDF8  string `json:"udf8"`
	UDF9  string `json:"udf9"`
	UDF10 string `json:"udf10"`
}

// udfViewOf renders an order's user-defined fields, kept by key.
func udfViewOf(udf map[string]string) udfView {
	return udfView{udf["udf1"], udf["udf2"], udf["udf3"], udf["udf4"], udf["udf5"],
		udf["udf6"], udf["udf7"], udf["udf8"], udf["udf9"], udf["udf10"]}
}
