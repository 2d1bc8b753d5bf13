package checkouttest_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/conformance"
)

// rule is a rule of the service interface (spec §2.1–2.6) and a raw
// session body that breaks it: the fake refuses the body with a 400 whose
// error_info.fields name exactly paths, in the "Mandatory fields are
// missing" shape when missing.
type rule struct {
	spec    string
	body    string
	paths   []string
	missing bool
}

// sessionJSON is a complete paymentPage session body as JSON text, with
// edits: "key=<raw JSON>" sets a key (kept in place when the body has it),
// "-key" removes one. {{n}} in it is made unique per request.
func sessionJSON(edits ...string) string {
	keys := []string{"order_id", "amount", "customer_id", "customer_phone", "customer_email", "payment_page_client_id", "action"}
	vals := map[string]string{"order_id": `"ord_w{{n}}"`, "amount": `"10.00"`, "customer_id": `"cust_1"`,
		"customer_phone": `"9876543210"`, "customer_email": `"a@example.com"`, "payment_page_client_id": `"shop"`, "action": `"paymentPage"`}
	for _, e := range edits {
		if k, ok := strings.CutPrefix(e, "-"); ok {
			delete(vals, k)
			continue
		}
		k, v, _ := strings.Cut(e, "=")
		if _, had := vals[k]; !had {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	var members []string
	for _, k := range keys {
		if v, ok := vals[k]; ok {
			members = append(members, strconv.Quote(k)+":"+v)
		}
	}
	return "{" + strings.Join(members, ",") + "}"
}

// replaceN makes a body's {{n}} the unique n.
func replaceN(body, n string) string { return strings.ReplaceAll(body, "{{n}}", n) }

// checkRules posts each rule's body to a fake and checks its refusal: the
// status, the two 400 shapes of the service, the paths, a message naming
// the first path, and no order made.
func checkRules(t *testing.T, rules []rule) {
	t.Helper()
	s := newServer(t, checkouttest.Config{})
	for i, r := range rules {
		t.Run(r.spec, func(t *testing.T) {
			body := replaceN(r.body, strconv.Itoa(i))
			got := postSession(t, s, []byte(body))
			require.Equal(t, 400, got.status, "%s\n%s", body, got.body)
			require.Equal(t, r.paths, got.fieldNames(), "%s\n%s", body, got.body)
			if r.missing {
				require.Equal(t, "Mandatory fields are missing", got.json["error_code"])
			} else {
				require.Equal(t, "INVALID_REQUEST", got.json["error_code"])
			}
			require.Contains(t, got.json["error_message"], r.paths[0])
			_, err := s.Order("ord_w" + strconv.Itoa(i))
			require.ErrorIs(t, err, checkouttest.ErrUnknownOrder, "a refused session makes no order")
		})
	}
}

// The rules of the session request (spec §2.1), one raw body each.
func TestSessionRules(t *testing.T) {
	checkRules(t, []rule{
		{"2.1 action is required", sessionJSON("-action"), []string{"action"}, true},
		{"2.1 action is paymentPage, quickPay or paymentManagement, case sensitive", sessionJSON(`action="PaymentPage"`), []string{"action"}, false},
		{"2.1 action is a string", sessionJSON(`action=1`), []string{"action"}, false},
		{"2.1 order_id is required for paymentPage", sessionJSON("-order_id"), []string{"order_id"}, true},
		{"2.1 order_id is required for quickPay, not blank", sessionJSON(`order_id=" "`, `action="quickPay"`), []string{"order_id"}, true},
		{"2.1 amount is required for quickPay", sessionJSON("-amount", `action="quickPay"`), []string{"amount"}, true},
		{"2.1 amount is a decimal", sessionJSON(`amount="ten"`), []string{"amount"}, false},
		{"2.1 amount has at most two places", sessionJSON(`amount="1.005"`), []string{"amount"}, false},
		{"2.1 amount is not negative", sessionJSON(`amount="-1.00"`), []string{"amount"}, false},
		{"2.1 amount is text or a number", sessionJSON(`amount=true`), []string{"amount"}, false},
		{"2.1 customer_id is required", sessionJSON("-customer_id"), []string{"customer_id"}, true},
		{"2.1 customer_id is a string", sessionJSON(`customer_id=7`), []string{"customer_id"}, false},
		{"2.1 customer_phone is required for paymentPage", sessionJSON("-customer_phone"), []string{"customer_phone"}, true},
		{"2.1 customer_email is a string", sessionJSON(`customer_email=["a@example.com"]`), []string{"customer_email"}, false},
		{"2.1 payment_page_client_id is required", sessionJSON("-payment_page_client_id"), []string{"payment_page_client_id"}, true},
		{"2.1 return_url is a string", sessionJSON(`return_url={"url":"https://shop.example"}`), []string{"return_url"}, false},
		{"2.1 description is a string", sessionJSON(`description=5`), []string{"description"}, false},
		{"2.1 first_name is a string", sessionJSON(`first_name=false`), []string{"first_name"}, false},
		{"2.1 keys are case sensitive", sessionJSON(`Return_URL="https://shop.example"`), []string{"Return_URL"}, false},
		{"2.1 a mis-cased required key is missing too", sessionJSON("-customer_id", `Customer_Id="cust_1"`),
			[]string{"customer_id", "Customer_Id"}, true},
		{"2.1 payment_filter is an object", sessionJSON(`payment_filter="CARD"`), []string{"payment_filter"}, false},
		{"2.1 sdk_udf is a string", sessionJSON(`sdk_udf=true`), []string{"sdk_udf"}, false},
		{"2.1 product_summary is JSON text in a string", sessionJSON(`product_summary=[[{"type":"space"}]]`), []string{"product_summary"}, false},
		{"2.1 options.create_mandate is REQUIRED or OPTIONAL", sessionJSON(`options.create_mandate="ALWAYS"`, `mandate.max_amount="100.00"`),
			[]string{"options.create_mandate"}, false},
		{"2.1 options.create_mandate values are case sensitive", sessionJSON(`options.create_mandate="required"`, `mandate.max_amount="100.00"`),
			[]string{"options.create_mandate"}, false},
		{"2.1 mandate.max_amount is used with options.create_mandate", sessionJSON(`options.create_mandate="REQUIRED"`),
			[]string{"mandate.max_amount"}, true},
		{"2.1 mandate.max_amount is a decimal", sessionJSON(`options.create_mandate="REQUIRED"`, `mandate.max_amount="lots"`),
			[]string{"mandate.max_amount"}, false},
		{"2.1 mandate.max_amount is at least 1 (the service's published refusal)", sessionJSON(`options.create_mandate="OPTIONAL"`, `mandate.max_amount="0.50"`),
			[]string{"mandate.max_amount"}, false},
		{"2.1 mandate.start_date is a numeric timestamp", sessionJSON(`options.create_mandate="REQUIRED"`, `mandate.max_amount="100.00"`, `mandate.start_date="2024-01-01"`),
			[]string{"mandate.start_date"}, false},
		{"2.1 mandate.end_date is a numeric timestamp", sessionJSON(`options.create_mandate="REQUIRED"`, `mandate.max_amount="100.00"`, `mandate.end_date=1.5`),
			[]string{"mandate.end_date"}, false},
		{"2.1 metadata.SERVICE:gateway_reference_id is case sensitive", sessionJSON(`metadata.service:gateway_reference_id="ref_1"`),
			[]string{"metadata.service:gateway_reference_id"}, false},
		{"2.1 metadata.SERVICE:gateway_reference_id is a string", sessionJSON(`metadata.SERVICE:gateway_reference_id=12`),
			[]string{"metadata.SERVICE:gateway_reference_id"}, false},
		{"2.1 metadata.webhook_url is an HTTPS URL", sessionJSON(`metadata.webhook_url="http://shop.example/hooks"`),
			[]string{"metadata.webhook_url"}, false},
		{"2.1 metadata.webhook_url is a URL", sessionJSON(`metadata.webhook_url="hooks"`), []string{"metadata.webhook_url"}, false},
		{"options.get_upi_deep_links is true or false", sessionJSON(`options.get_upi_deep_links="yes"`), []string{"options.get_upi_deep_links"}, false},
		{"udf1 is a string", sessionJSON(`udf1=1`), []string{"udf1"}, false},
		{"the body is valid UTF-8", sessionJSON("description=\"caf\xe9\""), []string{"body"}, false},
	})
}

// What the service takes, the fake takes: keys it does not read, amounts
// as text or numbers, unknown actions, a guest paymentManagement.
func TestSessionRulesLetThrough(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	for i, body := range []string{
		sessionJSON(`amount=100`),
		sessionJSON(`amount="1.0"`),
		sessionJSON(`amount="0"`),
		sessionJSON("-customer_email"),
		sessionJSON(`action="enach"`, `service="in.juspay.ec"`, `options.create_mandate="REQUIRED"`, `mandate.max_amount="1000.00"`,
			`mandate.start_date="1644420442"`, `mandate.end_date=1646234827`),
		sessionJSON(`action="paymentManagement"`, "-order_id", "-amount", "-customer_phone", "-customer_email"),
		sessionJSON(`action="paymentManagement"`), // an order id and amount it takes no order for
		sessionJSON(`options.create_mandate="OPTIONAL"`, `mandate_max_amount="100"`),
		sessionJSON(`send_mail=true`, `gateway_id="12"`, `metadata.expiryInMins="3397"`, `mandate.revokable_by_customer=true`, `mobile_country_code="+91"`),
		sessionJSON(`metadata.PAYU:gateway_reference_id="payu_1"`, `metadata.SERVICE:gateway_reference_id="ref_1"`),
		sessionJSON(`metadata.webhook_url="http://127.0.0.1:9/hooks"`),
		sessionJSON(`options.get_upi_deep_links=true`),
		sessionJSON(`currency="INR"`, `udf10="x"`, `description=null`),
	} {
		body = replaceN(body, fmt.Sprint("ok", i))
		r := postSession(t, s, []byte(body))
		require.Equal(t, 200, r.status, "%s\n%s", body, r.body)
	}
}

// Every session body the service publishes is accepted raw: the request
// bodies of the session, payment_filter, payment_links and product_summary
// folders (the bank's fragment scripts, valid JSON, too) and the JWE+JWS
// walkthrough's plain payload.
func TestPublishedSessionBodies(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	var bodies []conformance.Sample
	for _, dir := range []string{"session", "payment_filter", "payment_links", "product_summary"} {
		bodies = append(bodies, conformance.Files(t, dir, "*.body.json")...)
	}
	bodies = append(bodies, conformance.Files(t, "session", "session_request_*.json")...)
	bodies = append(bodies, conformance.Files(t, "jwt", "jwt_step1_plain_session_payload.json")...)
	seen := map[string]bool{}
	for _, b := range bodies {
		if seen[b.Path] {
			continue
		}
		seen[b.Path] = true
		require.True(t, b.ValidJSON(), "%s is a published session body", b.Name)
		t.Run(b.Name, func(t *testing.T) {
			r := postSession(t, s, b.Data)
			require.Equal(t, 200, r.status, string(r.body))
		})
	}
	require.GreaterOrEqual(t, len(seen), 35, "the published session bodies were emptied?")
}
