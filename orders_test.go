package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

func fullOrder() *OrderRequest {
	return &OrderRequest{
		OrderID:       "HD-1707740261",
		Amount:        "1499.00",
		Currency:      "INR",
		CustomerID:    "cust_42",
		CustomerEmail: "asha@example.com",
		CustomerPhone: "9876543210",
		ProductID:     "sku-5",
		ReturnURL:     "https://shop.example.com/return?o=HD-1707740261&x=1",
		Description:   "Order #1 — 2 items",
		BillingAddress: &Address{
			FirstName: "Asha", LastName: "Rao", Line1: "12 MG Road", Line2: "Floor 3", Line3: "Near the park",
			City: "Bengaluru", State: "Karnataka", Country: "India", PostalCode: "560001", Phone: "9876543210",
			CountryCodeISO: "IND",
		},
		ShippingAddress: &Address{
			FirstName: "Ravi", LastName: "Rao", Line1: "4 Park St", Line2: "Block B", Line3: "Gate 2",
			City: "Kolkata", State: "West Bengal", Country: "India", PostalCode: "700016", Phone: "9123456780",
			CountryCodeISO: "IND",
		},
		GatewayMetadata: []GatewayMetadata{
			{Gateway: "PAYU", Key: "offer_key", Value: "OFF10"},
			{Gateway: "RAZORPAY", Key: "notes", Value: "a&b=c"},
		},
		SubventionAmount:   "50.00",
		GatewayReferenceID: "payu_test",
		WebhookURL:         "https://shop.example.com/webhooks",
		ClientAuthToken:    true,
		CollectionLinks: &CollectionLinks{Links: []CollectionLink{
			{Method: CollectionPay, Expiry: 30 * time.Minute},
			{Method: CollectionQR, Expiry: 15 * time.Minute},
		}},
		Extra: map[string]string{"udf1": "rider", "udf10": "RiderQR"},
	}
}

// goldenForm compares an encoded form body with a golden file holding one
// key=value pair per line (as encoded, in order); the body is those lines
// joined with "&".
func goldenForm(t *testing.T, name, body string) {
	t.Helper()
	wiretest.Golden(t, name, []byte(strings.ReplaceAll(body, "&", "\n")+"\n"))
}

func TestOrderFormGolden(t *testing.T) {
	tests := []struct {
		golden string
		req    *OrderRequest
	}{
		{"order_full.form", fullOrder()},
		{"order_minimal.form", &OrderRequest{OrderID: "14183944763", Amount: "1.00"}},
		{"order_qr_only.form", &OrderRequest{OrderID: "o-qr", Amount: "2.00", Currency: "INR",
			CollectionLinks: &CollectionLinks{Links: []CollectionLink{{Method: CollectionQR}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			require.NoError(t, tt.req.Validate())
			v, err := tt.req.form()
			require.NoError(t, err)
			goldenForm(t, tt.golden, v.Encode())
		})
	}
}

func TestOrderFormCollectionDetails(t *testing.T) {
	v, err := fullOrder().form()
	require.NoError(t, err)
	require.Equal(t, "1", v.Get("options.get_payment_collection_link"))
	require.Equal(t, `{"supported_payment_methods":["PAY","QR"],"expiry_details":[`+
		`{"payment_method":"PAY","expiry_in_mins":"30"},{"payment_method":"QR","expiry_in_mins":"15"}]}`,
		v.Get("payment_collection_link_details"))
	require.Equal(t, "true", v.Get("options.get_client_auth_token"))
	require.Equal(t, "OFF10", v.Get("metadata.PAYU:offer_key"))
	require.Equal(t, "a&b=c", v.Get("metadata.RAZORPAY:notes"))
	require.Equal(t, "payu_test", v.Get("metadata.SERVICE:gateway_reference_id"))
	require.Equal(t, "50.00", v.Get("metadata.subvention_amount"))
	for _, p := range []string{"billing_address_", "shipping_address_"} {
		for _, k := range []string{"first_name", "last_name", "line1", "line2", "line3", "city", "state", "country",
			"postal_code", "phone", "country_code_iso"} {
			require.NotEmpty(t, v.Get(p+k), p+k)
		}
	}
}

func TestOrderValidate(t *testing.T) {
	runRequestCases(t, fullOrder, []requestCase[OrderRequest]{
		{"valid", func(*OrderRequest) {}, nil},
		{"empty", func(r *OrderRequest) { *r = OrderRequest{} }, []string{"order_id", "amount"}},
		{"bad amounts", func(r *OrderRequest) { r.Amount, r.SubventionAmount = "1499.005", "-5.50" },
			[]string{"amount", "metadata.subvention_amount"}},
		{"amounts the service takes", func(r *OrderRequest) { r.Amount, r.SubventionAmount = "1499", "5.5" }, nil},
		{"metadata with spaces is sent as given", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Gateway: " PAYU", Key: "k ", Value: "v"}}
		}, nil},
		{"http webhook", func(r *OrderRequest) { r.WebhookURL = "http://example.com/h" }, []string{"metadata.webhook_url"}},
		{"metadata without gateway", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Key: "k", Value: "v"}, {Gateway: "PAYU", Key: "a:b"}}
		}, []string{"metadata[0].Gateway", "metadata[1].Key"}},
		{"metadata duplicate", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Gateway: "PAYU", Key: "k"}, {Gateway: "PAYU", Key: "k"}}
		}, []string{"metadata.PAYU:k"}},
		{"metadata shadows typed gateway reference", func(r *OrderRequest) {
			r.GatewayMetadata = []GatewayMetadata{{Gateway: "SERVICE", Key: "gateway_reference_id", Value: "x"}}
		}, []string{"metadata.SERVICE:gateway_reference_id"}},
		{"collection links empty are sent", func(r *OrderRequest) { r.CollectionLinks = &CollectionLinks{} }, nil},
		{"collection links: only a fraction of a minute is refused", func(r *OrderRequest) {
			r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{
				{Method: "INTENT"}, {Method: CollectionQR, Expiry: 90 * time.Second}, {Method: CollectionQR},
				{Method: CollectionPay, Expiry: -time.Minute},
			}}
		}, []string{"payment_collection_link_details.expiry_details[0].expiry_in_mins"}},
		{"extra takes a typed key left empty", func(r *OrderRequest) {
			r.BillingAddress, r.CollectionLinks = nil, nil
			r.Extra = map[string]string{"billing_address_city": "x", "options.get_payment_collection_link": "0"}
		}, []string{"billing_address_city", "options.get_payment_collection_link"}},
		{"extra collides", func(r *OrderRequest) {
			r.Extra = map[string]string{"billing_address_city": "x", "options.get_client_auth_token": "false", "metadata.PAYU:offer_key": "y"}
		}, []string{"billing_address_city", "metadata.PAYU:offer_key", "options.get_client_auth_token"}},
	}, validatePaths)
}

// The advice of OrderRequest.Lint, on requests Validate lets through.
func TestOrderLint(t *testing.T) {
	require.Nil(t, fullOrder().Lint())
	require.Nil(t, (*OrderRequest)(nil).Lint())
	runRequestCases(t, fullOrder, []requestCase[OrderRequest]{
		{"amounts", func(r *OrderRequest) { r.Amount, r.SubventionAmount = "1499", "05.5" },
			[]string{"amount", "metadata.subvention_amount", "metadata.subvention_amount"}},
		{"order id", func(r *OrderRequest) { r.OrderID = " order-with-a-long-name-1 " }, []string{"order_id", "order_id"}},
		{"customer", func(r *OrderRequest) { r.CustomerEmail, r.CustomerPhone = "asha.example.com", "+91 98765 43210" },
			[]string{"customer_email", "customer_phone"}},
		{"return url", func(r *OrderRequest) { r.ReturnURL = "http://shop.example.com/r" }, []string{"return_url"}},
		{"relative return url", func(r *OrderRequest) { r.ReturnURL = "/r" }, []string{"return_url"}},
		{"return url with user", func(r *OrderRequest) { r.ReturnURL = "https://u:p@shop.example.com/r" }, []string{"return_url"}},
		{"metadata spaces", func(r *OrderRequest) { r.GatewayMetadata[1].Gateway = "RAZORPAY " }, []string{"metadata[1]"}},
		{"collection links", func(r *OrderRequest) {
			r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{
				{Method: "INTENT"}, {Method: CollectionQR}, {Method: CollectionQR}, {Method: CollectionPay, Expiry: -time.Minute},
			}}
		}, []string{
			"payment_collection_link_details.supported_payment_methods[0]",
			"payment_collection_link_details.supported_payment_methods[2]",
			"payment_collection_link_details.expiry_details[0].expiry_in_mins",
		}},
		{"no collection link", func(r *OrderRequest) { r.CollectionLinks = &CollectionLinks{} },
			[]string{"payment_collection_link_details.supported_payment_methods"}},
	}, requireLintPaths)
}

// With a namespace, the gateway reference travels under it, and gateway
// metadata naming the same key in that namespace is refused while the
// default namespace's key is then an ordinary gateway entry.
func TestOrderNamespace(t *testing.T) {
	r := fullOrder()
	v, err := r.formIn("JUSPAY")
	require.NoError(t, err)
	require.Equal(t, "payu_test", v.Get("metadata.JUSPAY:gateway_reference_id"))
	_, stale := v["metadata.SERVICE:gateway_reference_id"]
	require.False(t, stale)
	def, err := r.form()
	require.NoError(t, err)
	require.Len(t, v, len(def), "one key renamed, none added or lost")

	r.GatewayMetadata = []GatewayMetadata{{Gateway: "JUSPAY", Key: "gateway_reference_id", Value: "x"}}
	requireProblemPaths(t, r.validate("JUSPAY"), []string{"metadata.JUSPAY:gateway_reference_id"})
	require.NoError(t, r.Validate(), "in the default namespace it is an ordinary gateway entry")
	r.GatewayMetadata = []GatewayMetadata{{Gateway: "SERVICE", Key: "gateway_reference_id", Value: "x"}}
	require.NoError(t, r.validate("JUSPAY"))
	r.GatewayMetadata = nil
	r.Extra = map[string]string{"metadata.JUSPAY:gateway_reference_id": "y"}
	requireProblemPaths(t, r.validate("JUSPAY"), []string{"metadata.JUSPAY:gateway_reference_id"})

	c, srv := replyingClient(t, `{"status":"NEW","order_id":"HD-1707740261"}`, WithNamespace("JUSPAY"))
	require.Equal(t, "JUSPAY", c.Namespace())
	_, err = c.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	sent, err := url.ParseQuery(string(srv.last(t).Body))
	require.NoError(t, err)
	require.Equal(t, v, sent)
}

func TestCreateOrderWire(t *testing.T) {
	const body = `{"status":"NEW","status_id":10,"id":"ordeh_1","order_id":"HD-1707740261",
		"payment_links":{"web":"https://pay.example/w","mobile":"https://pay.example/m","iframe":"https://pay.example/i"},
		"links":{"payment_collection_links":{"QR":"https://pay.example/qr","INTENT":"https://pay.example/intent"}},
		"juspay":{"client_auth_token":"tkn_1","client_auth_token_expiry":"2024-02-12T07:59:57Z"}}`
	c, srv := replyingClient(t, body)
	o, err := c.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	require.Equal(t, "NEW", o.Status)
	require.Equal(t, 10, o.StatusID)
	require.Equal(t, "ordeh_1", o.ID)
	require.Equal(t, "HD-1707740261", o.OrderID)
	require.Equal(t, "https://pay.example/qr", o.CollectionLinks.QR)
	require.Equal(t, "https://pay.example/intent", o.CollectionLinks.Intent)
	require.Equal(t, "https://pay.example/m", o.PaymentLinks.Mobile)
	require.Equal(t, "tkn_1", o.ClientAuthToken)
	require.Equal(t, time.Date(2024, 2, 12, 7, 59, 57, 0, time.UTC), o.ClientAuthTokenExpiry)
	require.Equal(t, body, string(o.Raw), "Raw is the body as sent")

	got := srv.last(t)
	require.Equal(t, "POST", got.Method)
	require.Equal(t, "/orders", got.RequestURI)
	require.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	require.Equal(t, DefaultAPIVersion, got.Header.Get("Version"))
	require.Equal(t, testAuth, got.Header.Get("Authorization"))
	want, err := fullOrder().form()
	require.NoError(t, err)
	require.Equal(t, want.Encode(), string(got.Body))

	// The version header: per client, then per call.
	c2 := newTestClient(t, srv.URL, WithAPIVersion("2024-02-01"))
	_, err = c2.CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	require.Equal(t, "2024-02-01", srv.last(t).Header.Get("Version"))
	_, err = c2.CreateOrder(context.Background(), fullOrder(), WithAPIVersion("2025-01-31"))
	require.NoError(t, err)
	require.Equal(t, "2025-01-31", srv.last(t).Header.Get("Version"))
}

func TestGetOrderEscapesID(t *testing.T) {
	c, srv := replyingClient(t, `{"order_id":"a/b?c d#e","status":"CHARGED","amount":1}`)
	st, err := c.GetOrder(context.Background(), "a/b?c d#e")
	require.NoError(t, err)
	require.Equal(t, StatusCharged, st.Status)
	got := srv.last(t)
	require.Equal(t, "GET", got.Method)
	require.Equal(t, "/orders/a%2Fb%3Fc%20d%23e", got.RequestURI)
	require.Equal(t, DefaultAPIVersion, got.Header.Get("Version"))
	require.Empty(t, got.Body)

	for _, id := range []string{"", " ", ".", ".."} {
		_, err := c.GetOrder(context.Background(), id)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, "%q", id)
		require.True(t, ve.Has("order_id"))
	}
	require.EqualValues(t, 1, srv.count.Load())
}

func TestRefundWire(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: `{"order_id":"o/1","status":"CHARGED","refunded":true,
		"amount_refunded":"1.0","refunds":[{"unique_request_id":"r1","status":"PENDING","amount":1}]}`})
	c := newTestClient(t, srv.URL)
	st, err := c.Refund(context.Background(), "o/1", &RefundRequest{UniqueRequestID: "r1", Amount: "1.00"})
	require.NoError(t, err)
	require.True(t, st.Refunded)
	require.Equal(t, Amount("1.00"), st.AmountRefunded)
	require.Len(t, st.Refunds, 1)
	require.Equal(t, RefundPending, st.Refunds[0].Status)
	require.Equal(t, Amount("1.00"), st.Refunds[0].Amount)
	got := srv.last(t)
	require.Equal(t, "POST", got.Method)
	require.Equal(t, "/orders/o%2F1/refunds", got.RequestURI)
	require.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	require.Equal(t, "amount=1.00&unique_request_id=r1", string(got.Body))

	for _, tt := range []struct {
		id    string
		req   *RefundRequest
		paths []string
	}{
		{"o1", &RefundRequest{}, []string{"unique_request_id"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "0.00"}, []string{"amount"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "0"}, []string{"amount"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "-1.00"}, []string{"amount"}},
		{"o1", &RefundRequest{UniqueRequestID: "r", Amount: "1.005"}, []string{"amount"}},
		{"", &RefundRequest{UniqueRequestID: "r", Amount: "1.00"}, []string{"order_id"}},
		{"", nil, []string{"order_id", ""}},
	} {
		_, err := c.Refund(context.Background(), tt.id, tt.req)
		requireProblemPaths(t, err, tt.paths)
	}
	require.EqualValues(t, 1, srv.count.Load())
}

// decimalEqual compares an Amount with a JSON number read independently.
func decimalEqual(t *testing.T, want json.Number, got Amount) {
	t.Helper()
	if want == "" {
		require.Empty(t, got)
		return
	}
	w, ok := new(big.Rat).SetString(string(want))
	require.True(t, ok)
	g, ok := new(big.Rat).SetString(string(got))
	require.True(t, ok, "amount %q", got)
	require.Zero(t, w.Cmp(g), "want %s, got %s", want, got)
}

// jsonNumber reads a generic value as a number: a JSON number, or a string
// holding one.
func jsonNumber(v any) json.Number {
	switch x := v.(type) {
	case json.Number:
		return x
	case string:
		if _, ok := new(big.Rat).SetString(x); ok {
			return json.Number(x)
		}
	}
	return ""
}

func genericString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	}
	return ""
}

// Every valid published order and refund reply decodes, and the typed
// fields agree with a generic decoding of the same bytes.
func TestOrderStatusDecodeConformance(t *testing.T) {
	samples := append(conformance.Files(t, "orders", "*.json"), conformance.Files(t, "refunds", "*.json")...)
	valid := 0
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			if !s.ValidJSON() {
				_, err := decodeReply[OrderStatus](s.Data)
				require.Error(t, err)
				return
			}
			valid++
			dec := json.NewDecoder(strings.NewReader(string(s.Data)))
			dec.UseNumber()
			var m map[string]any
			require.NoError(t, dec.Decode(&m))
			if _, envelope := m["JWT"]; envelope { // the v4 reply is an encrypted envelope
				require.True(t, isSealed(s.Data), "the request path refuses it with ErrEnvelope")
				_, err := decodeReply[OrderStatus](s.Data)
				require.ErrorContains(t, err, "none of order_id, id, status")
				return
			}
			st, err := decodeReply[OrderStatus](s.Data)
			require.NoError(t, err)
			o, err := decodeReply[Order](s.Data)
			require.NoError(t, err)
			require.NotEmpty(t, st.OrderID, "every order and refund reply names its order")
			require.NotEmpty(t, st.Status)
			if _, ok := m["amount"]; ok {
				require.NotEmpty(t, st.Amount)
			}
			require.Equal(t, genericString(m["order_id"]), st.OrderID)
			require.Equal(t, genericString(m["status"]), string(st.Status))
			require.Equal(t, genericString(m["id"]), st.ID)
			decimalEqual(t, jsonNumber(m["amount"]), st.Amount)
			decimalEqual(t, jsonNumber(m["amount_refunded"]), st.AmountRefunded)
			if n := jsonNumber(m["status_id"]); n != "" {
				id, err := n.Int64()
				require.NoError(t, err)
				require.EqualValues(t, id, st.StatusID)
				require.EqualValues(t, id, o.StatusID)
			}
			require.Equal(t, genericString(m["txn_id"]), st.TxnID)
			require.Equal(t, genericString(m["payment_method_type"]), st.PaymentMethodType)
			require.Equal(t, m["refunded"] == true, st.Refunded)
			refunds, _ := m["refunds"].([]any)
			require.Len(t, st.Refunds, len(refunds))
			for i, r := range refunds {
				rm := r.(map[string]any)
				require.Equal(t, genericString(rm["unique_request_id"]), st.Refunds[i].UniqueRequestID)
				require.Equal(t, genericString(rm["status"]), string(st.Refunds[i].Status))
				decimalEqual(t, jsonNumber(rm["amount"]), st.Refunds[i].Amount)
			}
			if dc := genericString(m["date_created"]); dc != "" {
				want, err := time.Parse(time.RFC3339Nano, dc)
				require.NoError(t, err)
				require.True(t, want.Equal(st.DateCreated))
			}
			require.Equal(t, genericString(m["order_id"]), o.OrderID)
			require.Equal(t, genericString(m["status"]), o.Status)
			if links, ok := m["payment_links"].(map[string]any); ok {
				require.Equal(t, genericString(links["web"]), st.PaymentLinks.Web)
				require.Equal(t, genericString(links["web"]), o.PaymentLinks.Web)
			}
			require.Equal(t, string(s.Data), string(st.Raw))
		})
	}
	require.Greater(t, valid, 5)
}

// Redacted and mistyped fields are tolerated: "FILTERED" where an object is
// expected, numbers as strings, null everywhere.
func TestOrderStatusLenient(t *testing.T) {
	body := `{"order_id":12345,"id":null,"status":"CHARGED","status_id":"21","amount":"9000","currency":"INR",
		"refunded":"true","amount_refunded":"FILTERED","refunds":["FILTERED",{"unique_request_id":"r","amount":"1.5"},null],
		"payment_links":"FILTERED","card":"FILTERED","gateway_id":"23","date_created":"yesterday","unknown":{"deep":[1,2]}}`
	st, err := decodeReply[OrderStatus]([]byte(body))
	require.NoError(t, err)
	require.Equal(t, "12345", st.OrderID)
	require.Empty(t, st.ID)
	require.Equal(t, 21, st.StatusID)
	require.Equal(t, Amount("9000.00"), st.Amount)
	require.True(t, st.Refunded)
	require.Empty(t, st.AmountRefunded)
	require.Len(t, st.Refunds, 2, "FILTERED is left out; null is a zero refund, as encoding/json reads it")
	require.Equal(t, Amount("1.50"), st.Refunds[0].Amount)
	require.Equal(t, Refund{}, st.Refunds[1])
	require.Equal(t, PaymentLinks{}, st.PaymentLinks)
	require.Equal(t, 23, st.GatewayID)
	require.True(t, st.DateCreated.IsZero())

	_, err = decodeReply[OrderStatus]([]byte(`{"order_id":`))
	require.Error(t, err)
}

func TestOrderFormValuesRoundTrip(t *testing.T) {
	v, err := fullOrder().form()
	require.NoError(t, err)
	back, err := url.ParseQuery(v.Encode())
	require.NoError(t, err)
	require.Equal(t, v, back)
	require.Equal(t, "Order #1 — 2 items", back.Get("description"))
}

// No reply, however malformed, makes the decoders panic; a decoded session's
// payload is always a verbatim slice of the body and a decoded status keeps
// the body whole.
func FuzzDecodeReplies(f *testing.F) {
	f.Add([]byte(`{"status":"NEW","sdk_payload":{"a":"\u00e9"},"payment_links":"FILTERED"}`))
	f.Add([]byte(`{"order_id":1,"amount":"9000","refunds":[null,"x",{"amount":1e2}],"status_id":"21"}`))
	f.Add([]byte(`{"links":{"payment_collection_links":{"QR":5,"INTENT":null}},"juspay":"FILTERED"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"txn_detail":{"txn_amount_breakup":"[{\"value\":\"1\"}]"},"mandate":{"revokable_by_customer":"true"},"JWT":1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if s, err := decodeReply[Session](body); err == nil {
			if !bytes.Contains(body, s.SDKPayload) || len(s.SDKPayload) == 0 {
				t.Fatalf("payload %q is not a slice of the body", s.SDKPayload)
			}
		}
		if st, err := decodeReply[OrderStatus](body); err == nil && !bytes.Equal(st.Raw, body) {
			t.Fatal("Raw differs from the body")
		}
		_, _ = decodeReply[Order](body)
		if r, err := decodeReply[Refund](body); err == nil && !bytes.Equal(r.Raw, body) {
			t.Fatal("Raw differs from the body")
		}
		var x Transaction
		_ = json.Unmarshal(body, &x)
		var m MandateDetail
		_ = json.Unmarshal(body, &m)
	})
}

func TestCreateOrderValidationSendsNothing(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	r := fullOrder()
	r.Amount = "1499.999"
	r.CollectionLinks = &CollectionLinks{Links: []CollectionLink{{Method: "INTENT", Expiry: 30 * time.Second}}}
	_, err := c.CreateOrder(context.Background(), r)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("amount"))
	require.True(t, ve.Has("payment_collection_link_details.expiry_details[0].expiry_in_mins"))
	_, err = c.CreateOrder(context.Background(), nil)
	require.ErrorAs(t, err, &ve)
	require.Zero(t, srv.count.Load())
}

// The keys an order request owns come from its tags: exactly the keys a
// request with every field set sends, apart from Extra and the gateway
// metadata entries.
func TestOrderKeysFromTags(t *testing.T) {
	r := fullOrder()
	v, err := r.form()
	require.NoError(t, err)
	sent := map[string]bool{}
	for k := range v {
		sent[k] = true
	}
	for k := range r.Extra {
		delete(sent, k)
	}
	for _, m := range r.GatewayMetadata {
		delete(sent, "metadata."+m.Gateway+":"+m.Key)
	}
	require.Equal(t, sent, orderKeys())
}

// go-querystring encodes an order request through the field types'
// EncodeValues, as CreateOrder sends it.
func TestOrderEncodeValues(t *testing.T) {
	v, err := query.Values(&OrderRequest{OrderID: "o", Amount: "1.00",
		ShippingAddress: &Address{City: "Pune"},
		GatewayMetadata: []GatewayMetadata{{Gateway: "PAYU", Key: "k", Value: "v"}},
		CollectionLinks: &CollectionLinks{Links: []CollectionLink{{Method: CollectionQR}}}})
	require.NoError(t, err)
	require.Equal(t, url.Values{
		"order_id": {"o"}, "amount": {"1.00"}, "shipping_address_city": {"Pune"}, "metadata.PAYU:k": {"v"},
		"options.get_payment_collection_link": {"1"},
		"payment_collection_link_details":     {`{"supported_payment_methods":["QR"]}`},
	}, v)
}

// A reply whose nested parts are mistyped still decodes leniently: before
// the order's own fields were reached through a pointer, and the lenient
// second decode failed on it.
func TestOrderDecodeLenientNested(t *testing.T) {
	o, err := decodeReply[Order]([]byte(`{"order_id":"o","status_id":"10","juspay":"FILTERED",` +
		`"links":{"payment_collection_links":{"QR":5,"INTENT":"upi://pay"}}}`))
	require.NoError(t, err)
	require.Equal(t, "o", o.OrderID)
	require.Equal(t, 10, o.StatusID)
	require.Empty(t, o.ClientAuthToken)
	require.Equal(t, CollectionLinkURLs{QR: "5", Intent: "upi://pay"}, o.CollectionLinks)
}

// gockHeaders are the headers every call of a gock test client sends
// (no options), with contentType and extra.
func gockHeaders(contentType string, extra map[string]string) map[string]string {
	return sentHeaders("checkout-go/"+SDKVersion, contentType, extra)
}

// sentHeaders are the headers every call of a test client with user agent
// ua sends, with contentType and extra.
func sentHeaders(ua, contentType string, extra map[string]string) map[string]string {
	h := map[string]string{
		"Authorization": testAuth,
		"X-Merchantid":  testMerchant,
		"Accept":        "application/json",
		"User-Agent":    ua,
	}
	if contentType != "" {
		h["Content-Type"] = contentType
	}
	for k, v := range extra {
		h[k] = v
	}
	return h
}

// UpdateOrder posts the form to /orders/{order_id} with the version header
// and reads the reply as the order's status, as the service publishes it.
func TestUpdateOrderGock(t *testing.T) {
	sample := conformance.Files(t, "orders", "order_update_response.json")[0].Data
	c := newGockClient(t, gockBase, WithAPIVersion("2024-02-01"))
	gock.New(gockBase).Post("^/orders/").
		AddMatcher(func(r *http.Request, _ *gock.Request) (bool, error) {
			return r.URL.EscapedPath() == "/orders/JPAYNEW%2F035" && r.URL.RawQuery == "", nil
		}).
		AddMatcher(exactHeaders(gockHeaders("application/x-www-form-urlencoded", map[string]string{"Version": "2024-02-01"}))).
		BodyString("^" + regexpQuote("amount=90&shipping_address_city=Pune&shipping_address_postal_code=411001&udf1=gift") + "$").
		Reply(200).BodyString(string(sample))
	st, err := c.UpdateOrder(context.Background(), "JPAYNEW/035", &UpdateOrderRequest{
		Amount:          "90",
		ShippingAddress: &Address{City: "Pune", PostalCode: "411001"},
		Extra:           map[string]string{"udf1": "gift"},
	})
	require.NoError(t, err)
	require.Equal(t, "JPAYNEW035", st.OrderID)
	require.Equal(t, "ordeh_4b9501d714624eretry677i", st.ID)
	require.EqualValues(t, "NEW", st.Status)
	require.EqualValues(t, 10, st.StatusID)
	require.Equal(t, Amount("90.00"), st.Amount)
	require.Equal(t, Amount("3.00"), st.EffectiveAmount)
	require.Equal(t, "cst_wiqou3224", st.CustomerID)
	require.Equal(t, "INR", st.Currency)
	require.False(t, st.Refunded)
	require.Equal(t, time.Date(2021, 9, 10, 9, 24, 6, 0, time.UTC), st.DateCreated)
	require.Equal(t, "https://api.juspay.in/merchant/pay/ordeh_4b9501d7146243ac8a9d9c4a42ed7b59", st.PaymentLinks.Web)
	require.Equal(t, string(sample), string(st.Raw))
}

func TestUpdateOrderValidationAndRetries(t *testing.T) {
	srv := newRecorder(t, reply{status: 502, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for _, tt := range []struct {
		id    string
		req   *UpdateOrderRequest
		paths []string
	}{
		{"o1", &UpdateOrderRequest{Amount: "1.005"}, []string{"amount"}},
		{"o1", &UpdateOrderRequest{Amount: AmountFromMinor(-100)}, []string{"amount"}},
		{"o1", &UpdateOrderRequest{BillingAddress: &Address{City: "\xff"}, ShippingAddress: &Address{State: "\xfe"}},
			[]string{"billing_address_city", "shipping_address_state"}},
		{"o1", &UpdateOrderRequest{Extra: map[string]string{"amount": "5", "billing_address_city": "x", "udf1": "ok"}},
			[]string{"amount", "billing_address_city"}},
		{"", &UpdateOrderRequest{Amount: "1"}, []string{"order_id"}},
		{"..", nil, []string{"order_id", ""}},
	} {
		_, err := c.UpdateOrder(ctx, tt.id, tt.req)
		requireProblemPaths(t, err, tt.paths)
		require.ErrorContains(t, err, "checkout: update order: invalid request")
	}
	require.Zero(t, srv.count.Load(), "nothing is sent when validation fails")

	_, err := c.UpdateOrder(ctx, "o1", &UpdateOrderRequest{Amount: "1"})
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 1, srv.count.Load(), "a write is not resent after it may have reached the service")
	require.Equal(t, "amount=1", string(srv.last(t).Body))

	require.Equal(t, []Problem{{Path: "", Message: "changes nothing: set the amount, an address or udf fields"}},
		(&UpdateOrderRequest{}).Lint())
	require.Equal(t, []string{"amount"}, problemPaths((&UpdateOrderRequest{Amount: "90"}).Lint()))
	require.Nil(t, (&UpdateOrderRequest{Amount: "90.00"}).Lint())
}

// Validation and advice are linear in the size of the request: 100,000
// gateway metadata entries and Extra keys take well under a second (a
// quadratic check would take minutes), and a duplicate at the very end is
// still found.
func TestOrderValidateLinear(t *testing.T) {
	const n = 100_000
	r := fullOrder()
	r.Extra = make(map[string]string, n)
	for i := range n {
		k := "k" + strconv.Itoa(i)
		r.GatewayMetadata = append(r.GatewayMetadata, GatewayMetadata{Gateway: "PAYU", Key: k, Value: "v"})
		r.Extra["udf_"+k] = "v"
	}
	start := time.Now()
	require.NoError(t, r.Validate())
	require.Nil(t, r.Lint())
	require.Less(t, time.Since(start), 5*time.Second)

	r.GatewayMetadata = append(r.GatewayMetadata, GatewayMetadata{Gateway: "PAYU", Key: "k0", Value: "again"})
	requireProblemPaths(t, r.Validate(), []string{"metadata.PAYU:k0"})
}
