package checkouttest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/conformance"
)

// The fake must answer in the service's shapes: every key path it sends
// appears in one of the service's published samples of that kind.

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

func TestShapesMatchTheSamples(t *testing.T) {
	orderStatus := union(t, "orders", "order_status_*.json", "")
	for p := range union(t, "refunds", "refund_order_response.json", "") {
		orderStatus[p] = true
	}
	for p := range union(t, "webhooks", "webhook_order_*.json", "content.order") {
		orderStatus[p] = true
	}

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
