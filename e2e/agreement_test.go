package e2e_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// Agreement is a test, not a shared decoder: the SDK's Validate and the
// fake (checkouttest, which reads requests with its own model) judge the
// same session bodies, the published ones and one breach per rule of spec
// §2.1–2.6. They agree, or the row says why they must differ. A body the
// SDK can write is also sent as the SDK encodes it: the fake must judge the
// SDK's bytes as it judges the raw body, which is what catches an SDK
// encoding bug (the SDK once left out payment_filter.options).

// sdkVerdict says how the SDK stands to a row's body.
type sdkVerdict int

const (
	sdkSame    sdkVerdict = iota // the SDK writes the body; Validate names the fake's paths
	sdkDiffers                   // the SDK writes the body; Validate names sdk (why says why)
	sdkCannot                    // no SDK value encodes to the body (why says why)
)

// agreeRow is one body of the table.
type agreeRow struct {
	name string
	body string   // a session body; {{n}} is made unique
	fake []string // the paths the fake refuses; nil: it accepts
	sdk  sdkVerdict
	// paths are Validate's paths when sdk is sdkDiffers (nil: it accepts).
	paths []string
	why   string
}

// The reasons rows share.
const (
	whyAlwaysWritten = "the SDK always writes this key, from a typed field (a Go bool is never absent)"
	whyTyped         = "a typed field cannot hold a value of another JSON type"
	whyDeclaredKey   = "the SDK writes every key in its declared spelling: it cannot send a mis-cased key"
	whyTextNumber    = "the SDK sends this number as a JSON number (or a date as Unix seconds): it cannot send other text"
	whyOpenSet       = "the SDK lets an unknown value through (Lint advises) so that a value the service adds needs no new " +
		"SDK; the service's set is closed, so the fake refuses it. The SDK could refuse it too"
	whyServiceIgnores = "the SDK refuses a key or a combination the service only ignores (its Validate stops a mistake " +
		"before it is sent); the service takes the body, and so does the fake"
)

// session is a complete paymentPage body with edits ("key=<raw JSON>" sets,
// "-key" removes), as checkouttest's rule tests write them.
func sessionBody(edits ...string) string {
	keys := []string{"order_id", "amount", "customer_id", "customer_phone", "customer_email", "payment_page_client_id", "action"}
	vals := map[string]string{"order_id": `"ord_g{{n}}"`, "amount": `"10.00"`, "customer_id": `"cust_1"`,
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

func filterBody(f string) string { return sessionBody("payment_filter=" + f) }
func optionBody(o string) string {
	return filterBody(`{"allowDefaultOptions":true,"options":[` + o + `]}`)
}
func emiBody(e string) string {
	return filterBody(`{"allowDefaultOptions":true,"options":[],"emiOptions":` + e + `}`)
}
func summaryBody(s string) string { return sessionBody("product_summary=" + strconv.Quote(s)) }

// agreementRows are the breaches, one per rule, and the bodies both must
// take.
func agreementRows() []agreeRow {
	const opt = "payment_filter.options[0]"
	const emi = "payment_filter.emiOptions"
	const item = "product_summary[0][0]"
	card := func(cf string) string {
		return optionBody(`{"paymentMethodType":"CARD","enable":true,"cardFilters":[` + cf + `]}`)
	}
	upi := func(uf string) string {
		return optionBody(`{"paymentMethodType":"UPI","enable":true,"upiFilters":[` + uf + `]}`)
	}
	emiFilter := func(f string) string {
		return emiBody(`{"noCostEmi":{"enable":true,"credit":{"enable":true,"filters":[` + f + `]}}}`)
	}
	same := func(name, body string, fake ...string) agreeRow {
		return agreeRow{name: name, body: body, fake: fake}
	}
	cannot := func(name, body, why string, fake ...string) agreeRow {
		return agreeRow{name: name, body: body, fake: fake, sdk: sdkCannot, why: why}
	}
	differs := func(name, body string, fake, sdk []string, why string) agreeRow {
		return agreeRow{name: name, body: body, fake: fake, sdk: sdkDiffers, paths: sdk, why: why}
	}
	return []agreeRow{
		same("2.1 a complete paymentPage body", sessionBody()),
		same("2.1 action is required", sessionBody("-action"), "action"),
		differs("2.1 action values are case sensitive", sessionBody(`action="PaymentPage"`), []string{"action"}, nil,
			"the SDK lets any action through (the service takes actions it does not list, such as enach) and advises on an "+
				"unknown one (Lint); the service matches actions case-sensitively, so the fake refuses a known one in another "+
				"case. The SDK could refuse it, as it does a mis-cased paymentMethodType"),
		same("2.1 order_id is required for paymentPage", sessionBody("-order_id"), "order_id"),
		same("2.1 amount is required for quickPay", sessionBody("-amount", `action="quickPay"`), "amount"),
		same("2.1 amount is a decimal", sessionBody(`amount="ten"`), "amount"),
		same("2.1 amount has at most two places", sessionBody(`amount="1.005"`), "amount"),
		same("2.1 amount is not negative", sessionBody(`amount="-1.00"`), "amount"),
		cannot("2.1 amount is text or a number", sessionBody(`amount=true`), whyTyped, "amount"),
		same("2.1 customer_id is required", sessionBody("-customer_id"), "customer_id"),
		cannot("2.1 customer_id is a string", sessionBody(`customer_id=7`), whyTyped, "customer_id"),
		same("2.1 customer_phone is required for paymentPage", sessionBody("-customer_phone"), "customer_phone"),
		same("2.1 payment_page_client_id is required", sessionBody("-payment_page_client_id"), "payment_page_client_id"),
		cannot("2.1 description is a string", sessionBody(`description=5`), whyTyped, "description"),
		differs("2.1 keys are case sensitive", sessionBody(`Return_URL="https://shop.example"`), []string{"Return_URL"}, nil,
			"the SDK sends an Extra key as given, and Return_URL is not return_url to it; the service's keys are case "+
				"sensitive, so the fake refuses a key it reads written in another case. The SDK could refuse an Extra key "+
				"that is a typed key in another case"),
		cannot("2.1 payment_filter is an object", sessionBody(`payment_filter="CARD"`), whyTyped, "payment_filter"),
		cannot("2.1 product_summary is JSON text in a string", sessionBody(`product_summary=[[{"type":"space"}]]`),
			"the SDK always sends the summary as JSON text in a string", "product_summary"),
		differs("2.1 options.create_mandate is REQUIRED or OPTIONAL", sessionBody(`options.create_mandate="ALWAYS"`, `mandate.max_amount="100.00"`),
			[]string{"options.create_mandate"}, nil, whyOpenSet),
		differs("2.1 options.create_mandate values are case sensitive", sessionBody(`options.create_mandate="required"`, `mandate.max_amount="100.00"`),
			[]string{"options.create_mandate"}, nil, whyOpenSet),
		same("2.1 mandate.max_amount is used with options.create_mandate", sessionBody(`options.create_mandate="REQUIRED"`), "mandate.max_amount"),
		same("2.1 mandate.max_amount is a decimal", sessionBody(`options.create_mandate="REQUIRED"`, `mandate.max_amount="lots"`), "mandate.max_amount"),
		differs("2.1 mandate.max_amount is at least 1", sessionBody(`options.create_mandate="OPTIONAL"`, `mandate.max_amount="0.50"`),
			[]string{"mandate.max_amount"}, nil,
			"the service's published refusal (errors/session_error_400_amount_low.json) says mandate_max_amount should be at "+
				"least 1, and the fake follows it; the SDK checks only that it is an amount"),
		cannot("2.1 mandate.start_date is a numeric timestamp", sessionBody(`options.create_mandate="REQUIRED"`, `mandate.max_amount="100.00"`,
			`mandate.start_date="2024-01-01"`), whyTextNumber, "mandate.start_date"),
		differs("2.1 the gateway reference key is case sensitive", sessionBody(`metadata.service:gateway_reference_id="ref_1"`),
			[]string{"metadata.service:gateway_reference_id"}, nil,
			"the SDK sends metadata.<NAMESPACE>:gateway_reference_id in the client's namespace, and another namespace's "+
				"key as that gateway's own entry (deployments use other namespaces than SERVICE); the fake reads the spec's "+
				"SERVICE namespace, so metadata.service:… is its key mis-cased"),
		same("2.1 metadata.webhook_url is an HTTPS URL", sessionBody(`metadata.webhook_url="http://shop.example/hooks"`), "metadata.webhook_url"),
		cannot("options.get_upi_deep_links is true or false", sessionBody(`options.get_upi_deep_links="yes"`), whyTyped, "options.get_upi_deep_links"),
		cannot("udf1 is a string", sessionBody(`udf1=1`), whyTyped, "udf1"),
		same("2.1 paymentManagement takes no order (the SDK's Lint advises)", sessionBody(`action="paymentManagement"`)),
		same("2.1 an unknown action with its own keys", sessionBody(`action="enach"`, `service="in.juspay.ec"`)),

		cannot("2.2 allowDefaultOptions is required", filterBody(`{"options":[]}`), whyAlwaysWritten, "payment_filter.allowDefaultOptions"),
		cannot("2.2 allowDefaultOptions is a boolean", filterBody(`{"allowDefaultOptions":"true","options":[]}`), whyTyped, "payment_filter.allowDefaultOptions"),
		cannot("2.2 payment_filter keys are case sensitive", filterBody(`{"allowdefaultoptions":true,"options":[]}`), whyDeclaredKey,
			"payment_filter.allowDefaultOptions", "payment_filter.allowdefaultoptions"),
		cannot("2.2 options is required", filterBody(`{"allowDefaultOptions":true,"emiOptions":{"showOnlyEmi":true}}`),
			whyAlwaysWritten+": options, [] when there are none", "payment_filter.options"),
		same("2.2 options may be [] when only emiOptions is used", filterBody(`{"allowDefaultOptions":true,"options":[],"emiOptions":{"showOnlyEmi":true}}`)),
		cannot("2.2 options is an array", filterBody(`{"allowDefaultOptions":true,"options":{}}`), whyTyped, "payment_filter.options"),
		cannot("2.2 emiOptions is an object", filterBody(`{"allowDefaultOptions":true,"options":[],"emiOptions":[]}`), whyTyped, emi),
		cannot("2.3 paymentMethodType is required", optionBody(`{"enable":false}`),
			whyAlwaysWritten+" (empty here, which its Validate refuses at the same path)", opt+".paymentMethodType"),
		same("2.3 paymentMethodType values are case sensitive", optionBody(`{"paymentMethodType":"card","enable":false}`), opt+".paymentMethodType"),
		same("2.3 WALLETS, the published spelling, passes", optionBody(`{"paymentMethodType":"WALLETS","enable":false}`)),
		cannot("2.3 enable is required", optionBody(`{"paymentMethodType":"WALLET"}`), whyAlwaysWritten, opt+".enable"),
		cannot("2.3 enable is a boolean", optionBody(`{"paymentMethodType":"UPI","enable":"false"}`), whyTyped, opt+".enable"),
		cannot("2.3 option keys are case sensitive", optionBody(`{"paymentMethodType":"NB","enable":false,"PaymentMethods":["NB_HDFC"]}`),
			whyDeclaredKey, opt+".PaymentMethods"),
		same("2.3 CARD must be enabled with cardFilters", optionBody(`{"paymentMethodType":"CARD","enable":false,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}`),
			opt+".enable"),
		same("2.3 UPI must be enabled with upiFilters", optionBody(`{"paymentMethodType":"UPI","enable":false,"upiFilters":[{"enable":false,"upiType":"INTENT"}]}`),
			opt+".enable"),
		cannot("2.3 paymentMethods is an array", optionBody(`{"paymentMethodType":"WALLET","enable":false,"paymentMethods":"PAYTM"}`), whyTyped,
			opt+".paymentMethods"),
		differs("2.3 paymentMethods is ignored on UPI", optionBody(`{"paymentMethodType":"UPI","enable":false,"paymentMethods":["GPAY"]}`),
			nil, []string{opt + ".paymentMethods"}, whyServiceIgnores),
		differs("2.3 card filters are considered only on CARD", optionBody(`{"paymentMethodType":"NB","enable":true,"cardFilters":[{"enable":false,"cardTypes":["CREDIT"]}]}`),
			nil, []string{opt + ".cardFilters"}, whyServiceIgnores),
		differs("2.4 the service honours the first block of a type", filterBody(`{"allowDefaultOptions":true,"options":[{"paymentMethodType":"NB","enable":false},{"paymentMethodType":"NB","enable":true}]}`),
			nil, []string{"payment_filter.options[1]"}, whyServiceIgnores),
		differs("2.2 a filter that leaves nothing visible", filterBody(`{"allowDefaultOptions":false,"options":[]}`),
			nil, []string{"payment_filter.allowDefaultOptions"}, whyServiceIgnores),
		cannot("2.3 cardFilter enable is required", card(`{"cardTypes":["CREDIT"]}`), whyAlwaysWritten, opt+".cardFilters[0].enable"),
		differs("2.3 cardTypes are DEBIT or CREDIT", card(`{"enable":false,"cardTypes":["PREPAID"]}`),
			[]string{opt + ".cardFilters[0].cardTypes[0]"}, nil, whyOpenSet),
		same("2.3 cardTypes values are case sensitive", card(`{"enable":false,"cardTypes":["credit"]}`), opt+".cardFilters[0].cardTypes[0]"),
		same("2.3 cardBins are <from_bin>::<to_bin>", card(`{"enable":false,"cardBins":["459000-460000"]}`), opt+".cardFilters[0].cardBins[0]"),
		same("2.3 a BIN range runs upwards", card(`{"enable":false,"cardBins":["460000::459000"]}`), opt+".cardFilters[0].cardBins[0]"),
		cannot("2.3 a card list in one spelling", card(`{"enable":false,"cardTypes":["CREDIT"],"cardType":["DEBIT"]}`),
			"the SDK writes the plural key only", opt+".cardFilters[0].cardType"),
		cannot("2.3 cardFilter keys are case sensitive", card(`{"enable":false,"cardbrands":["VISA"]}`), whyDeclaredKey, opt+".cardFilters[0].cardbrands"),
		cannot("2.3 upiFilter enable is required", upi(`{"upiType":"INTENT","upiMethods":["GPAY"]}`), whyAlwaysWritten, opt+".upiFilters[0].enable"),
		differs("2.3 upiType is COLLECT or INTENT", upi(`{"enable":false,"upiType":"QR"}`), []string{opt + ".upiFilters[0].upiType"}, nil, whyOpenSet),
		same("2.3 upiType values are case sensitive", upi(`{"enable":false,"upiType":"collect"}`), opt+".upiFilters[0].upiType"),
		same("2.3 COLLECT upiMethods are handles", upi(`{"enable":false,"upiType":"COLLECT","upiMethods":["ybl"]}`), opt+".upiFilters[0].upiMethods[0]"),
		cannot("2.5 emiOptions keys are case sensitive", emiBody(`{"noCostEMI":{"enable":true}}`), whyDeclaredKey, emi+".noCostEMI"),
		cannot("2.5 an EMI type's enable is required", emiBody(`{"standardEmi":{}}`), whyAlwaysWritten, emi+".standardEmi.enable"),
		cannot("2.5 a group's enable is required", emiBody(`{"lowCostEmi":{"enable":true,"debit":{}}}`), whyAlwaysWritten, emi+".lowCostEmi.debit.enable"),
		cannot("2.5 an emiFilter's enable is required", emiFilter(`{"paymentMethodType":"CARD"}`), whyAlwaysWritten, emi+".noCostEmi.credit.filters[0].enable"),
		same("2.5 an emiFilter's paymentMethodType is case sensitive", emiFilter(`{"enable":true,"paymentMethodType":"Card"}`),
			emi+".noCostEmi.credit.filters[0].paymentMethodType"),
		cannot("2.5 paymentMethod is a string", emiFilter(`{"enable":true,"paymentMethod":["CARD"]}`), whyTyped, emi+".noCostEmi.credit.filters[0].paymentMethod"),
		same("2.5 tenures are <from>::<to> months", emiFilter(`{"enable":true,"issuerFilter":{"issuers":["SVC_ICICI"],"tenures":["9-12"],"enable":false}}`),
			emi+".noCostEmi.credit.filters[0].issuerFilter.tenures[0]"),
		cannot("2.5 issuerFilter enable is required", emiFilter(`{"enable":true,"issuerFilter":{"issuers":["SVC_HDFC"]}}`), whyAlwaysWritten,
			emi+".noCostEmi.credit.filters[0].issuerFilter.enable"),
		cannot("2.5 showOnlyEmi is a boolean", emiBody(`{"showOnlyEmi":"true"}`), whyTyped, emi+".showOnlyEmi"),
		differs("2.5 showOnlyEmi with every type disabled", emiBody(`{"standardEmi":{"enable":false},"lowCostEmi":{"enable":false},"noCostEmi":{"enable":false},"showOnlyEmi":true}`),
			nil, []string{emi + ".showOnlyEmi"}, whyServiceIgnores),
		differs("2.5 sdk_udf is showEMI, hideEMI or ShowEMIWithoutCards", sessionBody(`sdk_udf="maybeEMI"`), []string{"sdk_udf"}, nil, whyOpenSet),
		same("2.5 sdk_udf values are case sensitive", sessionBody(`sdk_udf="showemi"`), "sdk_udf"),

		cannot("2.6 product_summary is JSON text", summaryBody(`[[`), whyTyped, "product_summary"),
		cannot("2.6 a line is an array", summaryBody(`[{"type":"space"}]`), whyTyped, "product_summary[0]"),
		cannot("2.6 an item has a type", summaryBody(`[[{"text":"Total"}]]`), "the SDK writes each item's type from its kind", item+".type"),
		cannot("2.6 type is one of the six", summaryBody(`[[{"type":"video","url":"https://x.example/v.mp4"}]]`),
			"the SDK has a kind per type of the spec and no other", item+".type"),
		same("2.6 a divider's thickness is required", summaryBody(`[[{"type":"divider","color":"#D6C190"}]]`), item+".thickness"),
		cannot("2.6 thickness is a number", summaryBody(`[[{"type":"divider","thickness":"1"}]]`), whyTyped, item+".thickness"),
		cannot("2.6 a background's color is required", summaryBody(`[[{"type":"background"}]]`),
			whyAlwaysWritten+" (empty here, which its Validate refuses at the same path)", item+".color"),
		same("2.6 color is a hex colour", summaryBody(`[[{"type":"text","text":"Total","color":"navy"}]]`), item+".color"),
		same("2.6 an image's url is absolute", summaryBody(`[[{"type":"image","url":"/logo.png"}]]`), item+".url"),
		cannot("2.6 item keys are case sensitive", summaryBody(`[[{"type":"text","text":"Total","FontType":"bold"}]]`), whyDeclaredKey, item+".FontType"),
		same("2.6 toggleImage and the font types' casings", summaryBody(`[[{"type":"toggleImage","openIcon":"https://x.example/o.png","closeIcon":""}],[{"type":"text","text":"x","fontType":"SemiBold"}]]`)),
	}
}

// publishedRows are the service's published session bodies: both take
// each, and the SDK writes each.
func publishedRows(t *testing.T) []agreeRow {
	var out []agreeRow
	seen := map[string]bool{}
	add := func(dir, pattern string) {
		for _, s := range conformance.Files(t, dir, pattern) {
			if !seen[s.Path] && s.ValidJSON() {
				seen[s.Path] = true
				out = append(out, agreeRow{name: "published " + dir + "/" + s.Name, body: string(s.Data)})
			}
		}
	}
	for _, dir := range []string{"session", "payment_filter", "payment_links", "product_summary"} {
		add(dir, "*.body.json")
	}
	add("session", "session_request_*.json")
	add("jwt", "jwt_step1_plain_session_payload.json")
	return out
}

func TestSessionAgreement(t *testing.T) {
	rows := append(publishedRows(t), agreementRows()...)
	counts := map[string]int{}
	for i, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			body := []byte(strings.ReplaceAll(r.body, "{{n}}", strconv.Itoa(i)))
			fake := newFake(t, checkouttest.Config{})
			c := newClient(t, fake)
			require.Equal(t, r.fake, judge(t, c, body), "the fake's verdict on\n%s", body)

			req, err := sessionFromBody(body)
			var encoded []byte
			if err == nil {
				encoded, err = json.Marshal(req)
			}
			writes := err == nil && len(wireDiff("$", wiretest.NumberTree(t, body), wiretest.NumberTree(t, encoded))) == 0 &&
				!optionsAdded(wiretest.NumberTree(t, body), wiretest.NumberTree(t, encoded))
			if r.sdk == sdkCannot {
				require.False(t, writes, "the row says no SDK value writes this body, but one does: %s", encoded)
				require.NotEmpty(t, r.why)
				counts["the SDK cannot write it"]++
				return
			}
			require.True(t, writes, "an SDK value writes this body: %v\n%s\n%s", err, body, encoded)
			require.Equal(t, r.fake, judge(t, c, encoded), "the fake judges the SDK's bytes as the body:\n%s", encoded)
			want := r.fake
			if r.sdk == sdkDiffers {
				require.NotEmpty(t, r.why)
				require.NotEqual(t, r.fake, r.paths, "a row that differs must differ")
				want = r.paths
				counts["they differ"]++
			} else {
				counts["they agree"]++
			}
			require.Equal(t, want, problemPaths(req.Validate()), "Validate's verdict (%v)", req.Validate())
		})
	}
	t.Logf("%d bodies: %v", len(rows), counts)
	require.GreaterOrEqual(t, counts["they agree"], 60)
}

// judge sends body to the fake as is, through Client.Do, and returns the
// paths of its refusal (nil when it takes the body).
func judge(t *testing.T, c *checkout.Client, body []byte) []string {
	t.Helper()
	err := c.Do(ctxT(t), "POST", "/session", json.RawMessage(body), nil)
	if err == nil {
		return nil
	}
	var ae *checkout.APIError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, 400, ae.HTTPStatus, "%v", err)
	require.NotNil(t, ae.Info, "the service's error shape names the fields")
	var out []string
	for _, f := range ae.Info.Fields {
		out = append(out, f.FieldName)
	}
	return out
}

// problemPaths are the paths of Validate's problems, sorted as the fake
// names them (nil when there are none).
func problemPaths(err error) []string {
	var ve *checkout.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []string
	for _, p := range ve.Problems {
		if !slices.Contains(out, p.Path) {
			out = append(out, p.Path)
		}
	}
	return out
}

// optionsAdded reports whether encoded has a payment_filter.options that
// body lacks: the wire comparison forgives it for a published filter, but
// then the SDK did not write the body.
func optionsAdded(body, encoded any) bool {
	filter := func(v any) map[string]any {
		m, _ := v.(map[string]any)
		f, _ := m["payment_filter"].(map[string]any)
		return f
	}
	b, e := filter(body), filter(encoded)
	_, inBody := b["options"]
	_, inEncoded := e["options"]
	return e != nil && inEncoded && !inBody
}
