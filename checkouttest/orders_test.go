package checkouttest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/conformance"
)

func TestCreateOrder(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: now}
	s := newServer(t, checkouttest.Config{Now: clock.Now})

	form := orderForm("ord_o1")
	form.Set("options.get_payment_collection_link", "1")
	form.Set("payment_collection_link_details", `{"supported_payment_methods":["PAY","QR"],"expiry_details":[{"payment_method":"PAY","expiry_in_mins":"30"},{"payment_method":"QR","expiry_in_mins":"5"}]}`)
	form.Set("options.get_client_auth_token", "true")
	form.Set("metadata.RAZORPAY:gateway_reference_id", "x")
	r := postOrder(t, s, form)
	require.Equal(t, 200, r.status, string(r.body))
	require.Equal(t, "CREATED", r.json["status"])
	require.Equal(t, 1.0, r.json["status_id"])
	require.Equal(t, "ord_o1", r.json["order_id"])
	links := r.json["links"].(map[string]any)["payment_collection_links"].(map[string]any)
	require.Len(t, links, 2)
	qr, intent := links["QR"].(string), links["INTENT"].(string)
	require.Contains(t, qr, "expires_at="+url.QueryEscape("2026-03-01T10:05:00Z"))
	require.Contains(t, intent, "expires_at="+url.QueryEscape("2026-03-01T10:30:00Z"))
	require.True(t, strings.HasPrefix(r.json["juspay"].(map[string]any)["client_auth_token"].(string), "tkn_"))

	o, err := s.Order("ord_o1")
	require.NoError(t, err)
	require.Equal(t, now.Add(5*time.Minute), o.CollectionLinks["QR"].ExpiresAt)
	require.Equal(t, now.Add(30*time.Minute), o.CollectionLinks["INTENT"].ExpiresAt)
	require.Equal(t, "25.50", o.Amount)
	require.Equal(t, "x", o.Metadata["RAZORPAY:gateway_reference_id"])

	// The links load until they expire.
	require.Equal(t, 200, send(t, http.MethodGet, qr, nil, nil).status)
	clock.Set(now.Add(6 * time.Minute))
	require.Equal(t, 410, send(t, http.MethodGet, qr, nil, nil).status)
	require.Equal(t, 200, send(t, http.MethodGet, intent, nil, nil).status)

	// Without the flag no links are made.
	r = postOrder(t, s, orderForm("ord_o2"))
	require.Equal(t, 200, r.status)
	require.NotContains(t, r.json, "links")
	// Only QR asked for, default lifetime.
	form = orderForm("ord_o3")
	form.Set("options.get_payment_collection_link", "true")
	form.Set("payment_collection_link_details", `{"supported_payment_methods":["QR"]}`)
	r = postOrder(t, s, form)
	require.Equal(t, 200, r.status, string(r.body))
	require.Equal(t, []string{"QR"}, slices.Collect(maps.Keys(r.json["links"].(map[string]any)["payment_collection_links"].(map[string]any))))
}

// TestCreateOrderValidation: the form is refused exactly where the client's
// OrderRequest.Validate (or reading the form into it) refuses it, and the
// version header and content type as the service checks them.
func TestCreateOrderValidation(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	n := 0
	form := func(kv ...string) url.Values {
		n++
		f := url.Values{"order_id": {fmt.Sprintf("ord_bad%d", n)}, "amount": {"1.00"}}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				f.Del(kv[i])
			} else {
				f.Set(kv[i], kv[i+1])
			}
		}
		return f
	}
	links := func(details string) url.Values {
		return form("options.get_payment_collection_link", "1", "payment_collection_link_details", details)
	}
	post := func(t *testing.T, f url.Values, header map[string]string) reply {
		h := authHeaders()
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		h.Set("version", version)
		for k, v := range header {
			if v == "" {
				h.Del(k)
			} else {
				h.Set(k, v)
			}
		}
		return send(t, http.MethodPost, s.URL+"/orders", h, []byte(f.Encode()))
	}
	refused := []struct {
		name    string
		form    url.Values
		header  map[string]string
		missing bool
		fields  []string
	}{
		{"missing version", form(), map[string]string{"version": ""}, true, []string{"version"}},
		{"malformed version", form(), map[string]string{"version": "2023/06/30"}, false, []string{"version"}},
		{"impossible date", form(), map[string]string{"version": "2023-02-30"}, false, []string{"version"}},
		{"json body", form(), map[string]string{"Content-Type": "application/json"}, false, []string{"Content-Type"}},
		{"no content type", form(), map[string]string{"Content-Type": ""}, false, []string{"Content-Type"}},
		{"missing order_id", form("order_id", ""), nil, true, []string{"order_id"}},
		{"missing amount", form("amount", ""), nil, true, []string{"amount"}},
		{"bad amount", form("amount", "12.345"), nil, false, []string{"amount"}},
		{"negative amount", form("amount", "-1.00"), nil, false, []string{"amount"}},
		{"key twice", url.Values{"order_id": {"ord_bad", "ord_bad2"}, "amount": {"1.00"}}, nil, false, []string{"order_id"}},
		{"auth token flag not boolean", form("options.get_client_auth_token", "yes"), nil, false, []string{"options.get_client_auth_token"}},
		{"details not JSON", links(`{"supported_payment_methods":["QR"]`), nil, false, []string{"payment_collection_link_details"}},
		{"expiry as a number", links(`{"supported_payment_methods":["QR"],"expiry_details":[{"payment_method":"QR","expiry_in_mins":30}]}`), nil, false,
			[]string{"payment_collection_link_details.expiry_details[0].expiry_in_mins"}},
		{"expiry not whole minutes", links(`{"supported_payment_methods":["QR"],"expiry_details":[{"payment_method":"QR","expiry_in_mins":"1.5"}]}`), nil, false,
			[]string{"payment_collection_link_details.expiry_details[0].expiry_in_mins"}},
		{"expiry of an unrequested method", links(`{"supported_payment_methods":["QR"],"expiry_details":[{"payment_method":"PAY","expiry_in_mins":"30"}]}`), nil, false,
			[]string{"payment_collection_link_details.expiry_details[0].payment_method"}},
		{"webhook url not a URL", form("metadata.webhook_url", "hooks"), nil, false, []string{"metadata.webhook_url"}},
		{"subvention amount with three places", form("metadata.subvention_amount", "1.005"), nil, false, []string{"metadata.subvention_amount"}},
		{"mis-cased key", form("Customer_ID", "c"), nil, false, []string{"Customer_ID"}},
		{"details lower-case method", links(`{"supported_payment_methods":["qr"]}`), nil, false,
			[]string{"payment_collection_link_details.supported_payment_methods[0]"}},
		{"details INTENT, the response key", links(`{"supported_payment_methods":["INTENT","QR"]}`), nil, false,
			[]string{"payment_collection_link_details.supported_payment_methods[0]"}},
		{"details without methods", links(`{"expiry_details":[]}`), nil, true, []string{"payment_collection_link_details.supported_payment_methods"}},
		{"details mis-cased key", links(`{"supported_payment_methods":["QR"],"Expiry_Details":[]}`), nil, false,
			[]string{"payment_collection_link_details.Expiry_Details"}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, tt.form, tt.header)
			require.Equal(t, 400, r.status, string(r.body))
			require.Equal(t, tt.fields, r.fieldNames())
			if tt.missing {
				require.Equal(t, "Mandatory fields are missing", r.json["error_code"])
			} else {
				require.Equal(t, "INVALID_REQUEST", r.json["error_code"])
			}
			if id := tt.form.Get("order_id"); id != "" {
				_, err := s.Order(id)
				require.ErrorIs(t, err, checkouttest.ErrUnknownOrder, "a refused order is not made")
			}
		})
	}

	// What the service takes, though a client might advise against it: the
	// order is made.
	accepted := []struct {
		name  string
		form  url.Values
		links []string
	}{
		{"amount 1", form("amount", "1"), nil},
		{"mis-cased links flag", form("options.get_payment_collection_link", "TRUE"), nil},
		{"links flag without details", form("options.get_payment_collection_link", "1"), nil},
		{"gateway metadata", form("metadata.PAYU:offer_key", "diwali", "udf4", "x"), nil},
		{"unknown details key", links(`{"supported_payment_methods":["PAY"],"expiry":"30"}`), []string{"INTENT"}},
	}
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, tt.form, nil)
			require.Equal(t, 200, r.status, string(r.body))
			o, err := s.Order(tt.form.Get("order_id"))
			require.NoError(t, err)
			require.Equal(t, "1.00", o.Amount)
			require.ElementsMatch(t, tt.links, slices.Collect(maps.Keys(o.CollectionLinks)))
		})
	}
}

func TestGetOrder(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	r := getOrder(t, s, "ord_none")
	require.Equal(t, 400, r.status)
	require.Equal(t, "NOT_FOUND", r.json["status"])
	require.Equal(t, "NOT_FOUND", r.json["error_code"])

	require.Equal(t, 200, postOrder(t, s, orderForm("ord_g1")).status)
	r = getOrder(t, s, "ord_g1")
	require.Equal(t, 200, r.status)
	require.Equal(t, "CREATED", r.json["status"])
	require.Equal(t, 25.5, r.json["amount"])
	require.Equal(t, merchantID, r.json["merchant_id"])
	require.NotContains(t, r.json, "txn_id")

	require.NoError(t, s.PayWith("ord_g1", checkouttest.Payment{MethodType: "UPI"}))
	r = getOrder(t, s, "ord_g1")
	require.Equal(t, "CHARGED", r.json["status"])
	require.Equal(t, 21.0, r.json["status_id"])
	require.Equal(t, "UPI", r.json["payment_method_type"])
	require.Equal(t, merchantID+"-ord_g1-1", r.json["txn_id"])
	require.Equal(t, "CHARGED", r.json["txn_detail"].(map[string]any)["status"])
	require.Equal(t, "DUMMY", r.json["txn_detail"].(map[string]any)["gateway"])

	o, err := s.Order("ord_g1")
	require.NoError(t, err)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(o.Raw, &raw))
	require.Equal(t, r.json, raw, "Order.Raw is what GET answers")

	// The wrong method on a known path.
	h := authHeaders()
	r = send(t, http.MethodDelete, s.URL+"/orders/ord_g1", h, nil)
	require.Equal(t, 405, r.status)
	require.Equal(t, "GET, POST", r.header.Get("Allow"))
	require.Equal(t, 404, send(t, http.MethodGet, s.URL+"/nope", h, nil).status)
}

func TestRefunds(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_r1")).status) // 25.50

	r := postRefund(t, s, "ord_r1", "rf_1", "5.00")
	require.Equal(t, 400, r.status, "an unpaid order has nothing to refund")
	require.Equal(t, "No txn Found", r.json["error_code"])
	require.Equal(t, 400, postRefund(t, s, "ord_none", "rf_1", "5.00").status)
	require.Equal(t, "NOT_FOUND", postRefund(t, s, "ord_none", "rf_1", "5.00").json["status"])

	require.NoError(t, s.Pay("ord_r1"))
	r = postRefund(t, s, "ord_r1", "rf_1", "20.00")
	require.Equal(t, 200, r.status, string(r.body))
	require.Equal(t, false, r.json["refunded"], "a partial refund leaves refunded false")
	require.Equal(t, 20.0, r.json["amount_refunded"])
	refunds := r.json["refunds"].([]any)
	require.Len(t, refunds, 1)
	require.Equal(t, "PENDING", refunds[0].(map[string]any)["status"])
	require.Equal(t, "rf_1", refunds[0].(map[string]any)["unique_request_id"])

	r = postRefund(t, s, "ord_r1", "rf_2", "5.51")
	require.Equal(t, 400, r.status, "more than paid")
	require.Equal(t, []string{"amount"}, r.fieldNames())
	r = postRefund(t, s, "ord_r1", "rf_1", "1.00")
	require.Equal(t, 400, r.status, "same unique_request_id")
	require.Equal(t, []string{"unique_request_id"}, r.fieldNames())

	require.NoError(t, s.RefundFailed("ord_r1", "rf_1"))
	require.ErrorIs(t, s.RefundCompleted("ord_r1", "rf_1"), checkouttest.ErrInvalidTransition)
	require.ErrorIs(t, s.RefundCompleted("ord_r1", "rf_9"), checkouttest.ErrUnknownRefund)
	r = postRefund(t, s, "ord_r1", "rf_2", "25.50")
	require.Equal(t, 200, r.status, "a failed refund's amount is refundable again: %s", r.body)
	require.NoError(t, s.RefundCompleted("ord_r1", "rf_2"))
	o, err := s.Order("ord_r1")
	require.NoError(t, err)
	require.Equal(t, "25.50", o.AmountRefunded)
	require.Equal(t, []checkouttest.Refund{{"rf_1", "20.00", "FAILURE"}, {"rf_2", "25.50", "SUCCESS"}}, o.Refunds)

	require.ErrorIs(t, s.RefundCompleted("ord_r1"), checkouttest.ErrUnknownRefund, "no refund is pending")

	h := authHeaders()
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	r = send(t, http.MethodPost, s.URL+"/orders/ord_r1/refunds", h, []byte("amount=1.00"))
	require.Equal(t, 400, r.status)
	require.Equal(t, "Mandatory fields are missing", r.json["error_code"])
	require.Equal(t, []string{"unique_request_id"}, r.fieldNames())
	h.Set("Content-Type", "application/json")
	r = send(t, http.MethodPost, s.URL+"/orders/ord_r1/refunds", h, []byte(`{"unique_request_id":"rf_3","amount":"1.00"}`))
	require.Equal(t, 400, r.status)
	require.Equal(t, []string{"Content-Type"}, r.fieldNames())
	o, err = s.Order("ord_r1")
	require.NoError(t, err)
	require.Len(t, o.Refunds, 2, "refused refunds are not recorded")
}

// With no unique request id, RefundCompleted and RefundFailed move every
// pending refund of the order.
func TestRefundHelpersWithoutIDs(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_r2")).status) // 25.50
	require.NoError(t, s.Pay("ord_r2"))
	require.Equal(t, 200, postRefund(t, s, "ord_r2", "rf_a", "1.00").status)
	require.Equal(t, 200, postRefund(t, s, "ord_r2", "rf_b", "2.00").status)

	require.NoError(t, s.RefundCompleted("ord_r2"))
	o, err := s.Order("ord_r2")
	require.NoError(t, err)
	require.Equal(t, []checkouttest.Refund{{"rf_a", "1.00", "SUCCESS"}, {"rf_b", "2.00", "SUCCESS"}}, o.Refunds)
	require.ErrorIs(t, s.RefundFailed("ord_r2"), checkouttest.ErrUnknownRefund, "nothing left pending")
	require.ErrorIs(t, s.RefundCompleted("ord_none"), checkouttest.ErrUnknownOrder)

	require.Equal(t, 200, postRefund(t, s, "ord_r2", "rf_c", "3.00").status)
	require.NoError(t, s.RefundFailed("ord_r2"))
	o, err = s.Order("ord_r2")
	require.NoError(t, err)
	require.Equal(t, "FAILURE", o.Refunds[2].Status)
}

// paths lists the key paths of a JSON document: "a", "a.b", "a[].c". Below
// a prefix in opaque, keys are not listed (objects whose keys vary).
func paths(t *testing.T, data []byte, opaque ...string) map[string]bool {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(data, &v))
	out := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		for _, o := range opaque {
			if prefix == o {
				return
			}
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				out[p] = true
				walk(p, e)
			}
		case []any:
			for _, e := range x {
				walk(prefix+"[]", e)
			}
		}
	}
	walk("", v)
	return out
}

func union(t *testing.T, dir, pattern string, under string, opaque ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, s := range conformance.Files(t, dir, pattern) {
		if s.Negative() || !s.ValidJSON() {
			continue
		}
		for p := range paths(t, s.Data, opaque...) {
			if under == "" {
				out[p] = true
			} else if rest, ok := strings.CutPrefix(p, under+"."); ok {
				out[rest] = true
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

func requireSubset(t *testing.T, got, known map[string]bool, allowed ...string) {
	t.Helper()
	var extra []string
	for p := range got {
		ok := known[p]
		for _, a := range allowed {
			ok = ok || p == a || strings.HasPrefix(p, a+".")
		}
		if !ok {
			extra = append(extra, p)
		}
	}
	sort.Strings(extra)
	require.Empty(t, extra, "keys the service's samples never send")
}

// The fake must answer in the service's shapes: every key path it sends
// appears in one of the service's published samples of that kind.
func TestShapesMatchTheSamples(t *testing.T) {
	orderStatus := union(t, "orders", "order_status_*.json", "")
	for p := range union(t, "refunds", "refund_order_response.json", "") {
		orderStatus[p] = true
	}
	for p := range union(t, "webhooks", "webhook_order_*.json", "content.order") {
		orderStatus[p] = true
	}
	// order_expiry is in the published order-create and session replies,
	// not in the published statuses; the fake's status carries it too, so
	// that AwaitFinal can stop at it (checkout.OrderStatus.OrderExpiry).
	orderStatus["order_expiry"] = true

	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL),
		Gateways: []checkouttest.Gateway{{Name: "RAZORPAY", ID: 23, ReferenceID: "ref_a"}}})
	form := orderForm("ord_shape")
	form.Set("metadata.SERVICE:gateway_reference_id", "ref_a")
	form.Set("options.get_payment_collection_link", "1")
	form.Set("options.get_client_auth_token", "true")
	form.Set("payment_collection_link_details", `{"supported_payment_methods":["PAY","QR"]}`)
	created := postOrder(t, s, form)
	require.Equal(t, 200, created.status)
	requireSubset(t, paths(t, created.body), union(t, "orders", "order_create*.json", ""),
		"links.payment_collection_links.QR", "links.payment_collection_links.INTENT", "links.payment_collection_links", "links") // spec §2.8

	require.NoError(t, s.Pay("ord_shape"))
	refund := postRefund(t, s, "ord_shape", "rf_shape", "1.00")
	require.Equal(t, 200, refund.status)
	requireSubset(t, paths(t, refund.body), orderStatus)
	require.NoError(t, s.RefundCompleted("ord_shape", "rf_shape"))
	status := getOrder(t, s, "ord_shape")
	requireSubset(t, paths(t, status.body), orderStatus)

	wait(t, s)
	webhookKeys := union(t, "webhooks", "webhook_order_*.json", "", "content.order")
	for _, d := range s.Deliveries() {
		body := paths(t, d.Body, "content.order")
		require.Equal(t, webhookKeys, body, d.EventName)
		var ev struct {
			Content struct{ Order json.RawMessage } `json:"content"`
		}
		require.NoError(t, json.Unmarshal(d.Body, &ev))
		requireSubset(t, paths(t, ev.Content.Order), orderStatus)
	}

	sess := postSession(t, s, sessionBody("ord_shape_s"))
	require.Equal(t, 200, sess.status)
	known := union(t, "session", "session_response_*.json", "", "sdk_payload.payload")
	known["payment_links.expiry"] = true // payment_links/session_payment_link_new_response.json (not valid JSON as published)
	known["order_expiry"] = true         // idem
	requireSubset(t, paths(t, sess.body, "sdk_payload.payload"), known)

	require.Equal(t, 200, postOrder(t, s, orderForm("ord_shape_u")).status)
	updated := postForm(t, s, "/orders/ord_shape_u", url.Values{"amount": {"90"}, "udf1": {"x"}})
	require.Equal(t, 200, updated.status, string(updated.body))
	updateKeys := union(t, "orders", "order_update_response.json", "")
	for p := range orderStatus {
		updateKeys[p] = true
	}
	requireSubset(t, paths(t, updated.body), updateKeys)

	txnRefund := postForm(t, s, "/refunds", url.Values{"unique_request_id": {"rf_txn"}, "order_id": {"ord_shape"}, "amount": {"1.00"}, "refund_type": {"INSTANT"}})
	require.Equal(t, 200, txnRefund.status, string(txnRefund.body))
	requireSubset(t, paths(t, txnRefund.body), union(t, "refunds", "refund_[bi]*_response.json", ""))

	errorKeys := union(t, "errors", "*.json", "")
	errorKeys["order_id"] = true // the published order-not-found reply: {"status_id": 40, "status": "NOT_FOUND", "order_id": …}
	for _, r := range []reply{
		postSession(t, s, map[string]any{}),
		postSession(t, s, map[string]any{"action": "x"}),
		getOrder(t, s, "ord_none"),
		send(t, http.MethodGet, s.URL+"/orders/x", nil, nil),
		postRefund(t, s, "ord_shape", "rf_big", "99999.00"),
		postForm(t, s, "/refunds", url.Values{"unique_request_id": {"rf_none"}, "txn_id": {"txn_none"}}),
	} {
		require.GreaterOrEqual(t, r.status, 400)
		requireSubset(t, paths(t, r.body), errorKeys)
	}
}
