package checkouttest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

// TestSessionRequiredFields removes each field the client's Validate
// requires for each action and expects 400 "Mandatory fields are missing"
// naming it. paymentManagement (a guest's stored methods) needs neither a
// phone nor an email, and no action needs customer_email, as the service's
// published bodies show.
func TestSessionRequiredFields(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	common := []string{"customer_id", "payment_page_client_id", "action"}
	for _, action := range []string{"paymentPage", "quickPay", "paymentManagement"} {
		required := common
		if action != "paymentManagement" {
			required = append([]string{"order_id", "amount", "customer_phone"}, common...)
		}
		body := func() map[string]any {
			b := sessionBody("ord_req_" + action)
			b["action"] = action
			if action == "paymentManagement" {
				delete(b, "order_id")
				delete(b, "amount")
				delete(b, "customer_phone")
				delete(b, "customer_email")
			}
			return b
		}
		for _, field := range required {
			t.Run(action+" without "+field, func(t *testing.T) {
				b := body()
				delete(b, field)
				r := postSession(t, s, b)
				require.Equal(t, 400, r.status, string(r.body))
				require.Equal(t, "Mandatory fields are missing", r.json["error_code"])
				require.Equal(t, []string{field}, r.fieldNames())
				require.Contains(t, r.json["error_message"], field)
			})
		}
		t.Run(action+" complete", func(t *testing.T) {
			r := postSession(t, s, body())
			require.Equal(t, 200, r.status, string(r.body))
		})
	}
}

// TestSessionValidation: what the service refuses, the fake refuses at
// the offending key's path, with the service's two 400 shapes, and makes
// no order; what the service takes, the fake serves. The rule by rule
// tests are in wiresession_test.go, wirefilter_test.go and
// wiresummary_test.go.
func TestSessionValidation(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	n := 0
	with := func(change func(m map[string]any)) map[string]any {
		n++
		m := sessionBody("ord_v" + strings.Repeat("x", n))
		change(m)
		return m
	}
	filter := func(f string) func(m map[string]any) {
		return func(m map[string]any) {
			var v any
			require.NoError(t, json.Unmarshal([]byte(f), &v))
			m["payment_filter"] = v
		}
	}
	refused := []struct {
		name    string
		body    map[string]any
		missing bool
		fields  []string
	}{
		{"missing customer_id", with(func(m map[string]any) { delete(m, "customer_id") }), true, []string{"customer_id"}},
		{"missing action", with(func(m map[string]any) { delete(m, "action") }), true, []string{"action"}},
		{"paymentPage without amount", with(func(m map[string]any) { delete(m, "amount") }), true, []string{"amount"}},
		{"quickPay without order_id", with(func(m map[string]any) { delete(m, "order_id"); m["action"] = "quickPay" }), true, []string{"order_id"}},
		{"amount with three places", with(func(m map[string]any) { m["amount"] = "1.234" }), false, []string{"amount"}},
		{"negative amount", with(func(m map[string]any) { m["amount"] = "-0.05" }), false, []string{"amount"}},
		{"amount as an object", with(func(m map[string]any) { m["amount"] = map[string]any{} }), false, []string{"amount"}},
		{"webhook url over http", with(func(m map[string]any) { m["metadata.webhook_url"] = "http://shop.example/hook" }), false, []string{"metadata.webhook_url"}},
		{"mis-cased sdk_udf", with(func(m map[string]any) { m["sdk_udf"] = "ShowEMI" }), false, []string{"sdk_udf"}},
		{"product_summary as an array", with(func(m map[string]any) { m["product_summary"] = []any{} }), false, []string{"product_summary"}},
		{"product_summary divider without thickness", with(func(m map[string]any) { m["product_summary"] = `[[{"type":"divider"}]]` }), true,
			[]string{"product_summary[0][0].thickness"}},
		{"mandate start date not numeric", with(func(m map[string]any) {
			m["options.create_mandate"] = "REQUIRED"
			m["mandate.max_amount"] = "100.00"
			m["mandate.start_date"] = "2024-01-01"
		}), false, []string{"mandate.start_date"}},
		{"mandate option without its maximum", with(func(m map[string]any) { m["options.create_mandate"] = "REQUIRED" }), true, []string{"mandate.max_amount"}},
		{"mis-cased mandate option without its maximum", with(func(m map[string]any) { m["options.create_mandate"] = "required" }), true,
			[]string{"mandate.max_amount", "options.create_mandate"}},
		{"unknown mandate option", with(func(m map[string]any) { m["options.create_mandate"] = "SOMETIMES"; m["mandate.max_amount"] = "0.50" }), false,
			[]string{"options.create_mandate", "mandate.max_amount"}},
		{"mis-cased top-level key", with(func(m map[string]any) { m["Return_URL"] = "https://x.example" }), false, []string{"Return_URL"}},
		{"filter without allowDefaultOptions", with(filter(`{"options":[]}`)), true, []string{"payment_filter.allowDefaultOptions"}},
		{"enable as a string", with(filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"UPI","enable":"true"}]}`)), false,
			[]string{"payment_filter.options[0].enable"}},
		{"bad BIN range", with(filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true,"cardFilters":[{"enable":false,"cardBins":["459000::460000","460000::459000","45x"]}]}]}`)), false,
			[]string{"payment_filter.options[0].cardFilters[0].cardBins[1]", "payment_filter.options[0].cardFilters[0].cardBins[2]"}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			r := postSession(t, s, tt.body)
			require.Equal(t, 400, r.status, string(r.body))
			require.Equal(t, tt.fields, r.fieldNames())
			if tt.missing {
				require.Equal(t, "Mandatory fields are missing", r.json["error_code"])
				require.Equal(t, "Bad Request", r.json["status"])
			} else {
				require.Equal(t, "INVALID_REQUEST", r.json["error_code"])
				require.Equal(t, "ERROR", r.json["status"])
				require.Contains(t, r.json["error_message"], tt.fields[0])
			}
			if id, _ := tt.body["order_id"].(string); id != "" {
				_, err := s.Order(id)
				require.ErrorIs(t, err, checkouttest.ErrUnknownOrder, "a refused session makes no order")
			}
		})
	}

	// What the fake once refused on its own, and the service takes: advice
	// of the client's Lint at most.
	accepted := []struct {
		name string
		body map[string]any
	}{
		{"amount 1.0", with(func(m map[string]any) { m["amount"] = "1.0" })},
		{"amount as a number", with(func(m map[string]any) { m["amount"] = 10 })},
		{"amount zero", with(func(m map[string]any) { m["amount"] = "0" })},
		{"unknown action with extra keys", with(func(m map[string]any) { m["action"] = "enach"; m["service"] = "in.juspay.hyperapi" })},
		{"paymentManagement with order fields", with(func(m map[string]any) { m["action"] = "paymentManagement" })},
		{"no customer_email", with(func(m map[string]any) { delete(m, "customer_email") })},
		{"nested metadata object", with(func(m map[string]any) { m["metadata"] = map[string]any{"webhook_url": "https://x.example/h"} })},
		{"WALLETS method type", with(filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLETS","enable":false}]}`))},
		{"joined method codes", with(filter(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLET","enable":true,"paymentMethods":["LAZYPAY,SIMPL"]}]}`))},
		{"extra udf and metadata keys", with(func(m map[string]any) {
			m["udf9"] = "x"
			m["metadata.PAYU:offer_key"] = "diwali"
			m["metadata.anything"] = "y"
		})},
	}
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			r := postSession(t, s, tt.body)
			require.Equal(t, 200, r.status, string(r.body))
		})
	}
}

func TestSessionContentType(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	body, _ := json.Marshal(sessionBody("ord_ct"))
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
		h := authHeaders()
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		r := send(t, http.MethodPost, s.URL+"/session", h, body)
		require.Equal(t, 400, r.status, ct)
		require.Equal(t, []string{"Content-Type"}, r.fieldNames())
	}
	h := authHeaders()
	h.Set("Content-Type", "application/json; charset=utf-8")
	require.Equal(t, 200, send(t, http.MethodPost, s.URL+"/session", h, body).status)
	require.Equal(t, []string{"body"}, postSession(t, s, []byte(`{"a":1} {}`)).fieldNames())
	require.Equal(t, []string{"body"}, postSession(t, s, []byte(`[1]`)).fieldNames())
}

func TestSessionResponse(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	body := sessionBody("ord_s1")
	body["payment_filter"] = map[string]any{"allowDefaultOptions": false, "options": []any{map[string]any{"paymentMethodType": "UPI", "enable": true}}}
	body["sdk_udf"] = "hideEMI"
	body["metadata.webhook_url"] = "https://shop.example/hooks"
	body["udf3"] = "campaign-7"
	r := postSession(t, s, body)
	require.Equal(t, 200, r.status, string(r.body))
	require.Equal(t, "NEW", r.json["status"])
	require.Equal(t, "ord_s1", r.json["order_id"])
	id := r.json["id"].(string)
	require.True(t, strings.HasPrefix(id, "ordeh_"), id)
	require.Equal(t, s.URL+"/orders/"+id+"/payment-page", r.json["payment_links"].(map[string]any)["web"])

	sdk := r.json["sdk_payload"].(map[string]any)
	rid, err := uuid.Parse(sdk["requestId"].(string))
	require.NoError(t, err)
	require.Equal(t, uuid.Version(4), rid.Version())
	require.Equal(t, checkouttest.SDKService, sdk["service"])
	p := sdk["payload"].(map[string]any)
	for k, want := range map[string]any{
		"clientId": "shop", "orderId": "ord_s1", "amount": "10.00", "customerId": "cust_1", "customerPhone": "9876543210",
		"customerEmail": "a@example.com", "action": "paymentPage", "merchantId": merchantID, "currency": "INR",
		"sdkUdf": "hideEMI", "metadata.webhookUrl": "https://shop.example/hooks", "udf3": "campaign-7",
	} {
		require.Equal(t, want, p[k], k)
	}
	require.Equal(t, body["payment_filter"], p["paymentFilter"])
	require.True(t, strings.HasPrefix(p["clientAuthToken"].(string), "tkn_"))

	o, err := s.Order("ord_s1")
	require.NoError(t, err)
	require.Equal(t, id, o.ID)
	require.Equal(t, checkouttest.StatusNew, o.Status)
	require.Equal(t, "https://shop.example/hooks", o.WebhookURL)

	// The same order again: the same id and a fresh requestId.
	r2 := postSession(t, s, body)
	require.Equal(t, 200, r2.status)
	require.Equal(t, id, r2.json["id"])
	require.NotEqual(t, sdk["requestId"], r2.json["sdk_payload"].(map[string]any)["requestId"])
	// The same order_id with another amount is refused.
	body["amount"] = "11.00"
	r3 := postSession(t, s, body)
	require.Equal(t, 400, r3.status)
	require.Equal(t, []string{"amount"}, r3.fieldNames())

	// paymentManagement makes no order.
	pm := sessionBody("")
	delete(pm, "order_id")
	delete(pm, "amount")
	pm["action"] = "paymentManagement"
	r4 := postSession(t, s, pm)
	require.Equal(t, 200, r4.status, string(r4.body))
	require.NotContains(t, r4.json, "order_id")
	require.Equal(t, "paymentManagement", r4.json["sdk_payload"].(map[string]any)["payload"].(map[string]any)["action"])
}
