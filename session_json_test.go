package checkout

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// sessionBodies are the published session request bodies.
func sessionBodies(t *testing.T) []conformance.Sample {
	var out []conformance.Sample
	for _, dir := range []string{"session", "payment_links", "product_summary"} {
		for _, s := range conformance.Files(t, dir, "*.json") {
			if strings.Contains(s.Name, "request") && s.ValidJSON() && !s.Negative() {
				out = append(out, s)
			}
		}
	}
	return out
}

// Every published session request body decodes into SessionRequest,
// passes Validate and encodes back to a body that means the same to the
// service: typed keys sent as numbers come back as the same text, the older
// mandate_max_amount as mandate.max_amount, gateway metadata as given.
func TestSessionRequestJSONConformance(t *testing.T) {
	bodies := sessionBodies(t)
	for _, s := range bodies {
		t.Run(s.Name, func(t *testing.T) {
			var r SessionRequest
			require.NoError(t, json.Unmarshal(s.Data, &r))
			require.NoError(t, r.Validate(), "a published body passes")
			out, err := json.Marshal(&r)
			require.NoError(t, err)
			requireSameSession(t, s.Data, out)

			var again SessionRequest
			require.NoError(t, json.Unmarshal(out, &again))
			require.Equal(t, r, again)
		})
	}
}

// Specific values of the samples land in the typed fields unchanged.
func TestSessionRequestUnmarshalFields(t *testing.T) {
	data := conformance.Files(t, "session", "session_request_enach_mandate_required.body.json")
	if len(data) == 0 {
		t.Skip("sample missing")
	}
	var r SessionRequest
	require.NoError(t, json.Unmarshal(data[0].Data, &r))
	require.Equal(t, Action("enach"), r.Action, "kept as sent")
	require.NoError(t, r.Validate(), "an action the SDK does not know passes")
	require.Equal(t, []Problem{{Path: "action", Message: `"enach" is not an action this SDK knows (paymentPage, quickPay, paymentManagement): only what every action needs was checked`}},
		r.Lint())
	require.Equal(t, Amount("10.00"), r.Amount)
	require.Equal(t, &Mandate{
		Option: MandateRequired, MaxAmount: "1000.00",
		StartDate: time.Unix(1644420442, 0).UTC(), EndDate: time.Unix(1646234827, 0).UTC(),
	}, r.Mandate)
	require.Equal(t, map[string]any{"service": "in.juspay.ec"}, r.Extra)

	var basic SessionRequest
	require.NoError(t, json.Unmarshal([]byte(`{"amount":"1.0","udf1":1.50,"udf2":"b","x":{"y":[1,"a"]},"n":2.50}`), &basic))
	require.Equal(t, Amount("1.0"), basic.Amount, "no normalisation of a request amount")
	require.Equal(t, "1.50", basic.UDF1, "a number given for a typed text key is its text")
	require.Equal(t, "b", basic.UDF2)
	require.Equal(t, map[string]any{"x": map[string]any{"y": []any{json.Number("1"), "a"}}, "n": json.Number("2.50")}, basic.Extra)
	out, err := json.Marshal(basic)
	require.NoError(t, err)
	require.JSONEq(t, `{"amount":"1.0","udf1":"1.50","udf2":"b","x":{"y":[1,"a"]},"n":2.50}`, string(out))
	require.Contains(t, string(out), `"n":2.50`, "number text kept in Extra")
}

// Every golden body of the encoder decodes back to the same bytes.
func TestSessionRequestJSONGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/session_*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		want, err := os.ReadFile(f)
		require.NoError(t, err)
		var r SessionRequest
		require.NoError(t, json.Unmarshal(want, &r), f)
		require.NoError(t, r.Validate(), f)
		got, err := r.MarshalJSON()
		require.NoError(t, err)
		sent, err := r.encode(DefaultNamespace)
		require.NoError(t, err)
		require.Equal(t, string(sent), string(got), "MarshalJSON is the wire body")
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, want))
		require.Equal(t, compact.String(), string(got), f)
		viaJSON, err := json.Marshal(r)
		require.NoError(t, err)
		require.JSONEq(t, compact.String(), string(viaJSON), "json.Marshal escapes HTML but keeps the value")
	}
}

// Before MarshalJSON, json.Marshal printed Go field names.
func TestSessionRequestMarshalUsesWireKeys(t *testing.T) {
	r := baseSession()
	r.Mandate = &Mandate{Option: MandateOptional, MaxAmount: "5.00", StartDate: time.Unix(1700000000, 0)}
	r.WebhookURL = "https://shop.example/hook"
	out, err := json.Marshal(r)
	require.NoError(t, err)
	require.NotContains(t, string(out), "OrderID")
	require.JSONEq(t, `{"order_id":"order_dummy_1","amount":"100.00","customer_id":"customer_id",
		"customer_phone":"8888899999","customer_email":"asdf@gmail.com","payment_page_client_id":"picasso",
		"action":"paymentPage","options.create_mandate":"OPTIONAL","mandate.max_amount":"5.00",
		"mandate.start_date":"1700000000","metadata.webhook_url":"https://shop.example/hook"}`, string(out))
}

func TestSessionRequestUnmarshalErrors(t *testing.T) {
	for _, tc := range []struct{ body, path string }{
		{`{"amount":null}`, "amount"},
		{`{"order_id":true}`, "order_id"},
		{`{"customer_id":{"a":1}}`, "customer_id"},
		{`{"mandate.start_date":"16444x"}`, "mandate.start_date"},
		{`{"mandate.end_date":"0123"}`, "mandate.end_date"},
		{`{"product_summary":[[{"type":"space"}]]}`, "product_summary"},
		{`{"payment_filter":"FILTERED"}`, "payment_filter"},
		{`{"mandate.start_date":"-62135596800"}`, "mandate.start_date"},
		{`{"mandate_max_amount":false}`, "mandate_max_amount"},
	} {
		r := SessionRequest{OrderID: "keep"}
		err := json.Unmarshal([]byte(tc.body), &r)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, tc.body)
		require.True(t, strings.HasPrefix(ve.Problems[0].Path, tc.path), "%s: %v", tc.body, ve)
		require.Equal(t, "keep", r.OrderID, "a failed decode changes nothing")
	}
	var r SessionRequest
	var ve *ValidationError
	require.ErrorAs(t, json.Unmarshal([]byte("{\"udf1\":\"a\xffb\"}"), &r), &ve)
	require.ErrorAs(t, r.UnmarshalJSON([]byte(`[1]`)), &ve)
	require.NoError(t, r.UnmarshalJSON([]byte(`null`)))

	// Keys the service would not use, but which JSON can carry, decode into
	// Extra; Lint points at them.
	require.NoError(t, json.Unmarshal([]byte(`{"udf\u0000":"x","":"y"}`), &r))
	require.Equal(t, map[string]any{"udf\x00": "x", "": "y"}, r.Extra)
	require.Equal(t, []Problem{{Path: "", Message: "Extra has an empty key"}, {Path: `"udf\x00"`, Message: "Extra key holds control characters"}},
		r.Lint())
}

// Other spellings the service's bodies use decode into the typed field
// and encode in the one canonical spelling: numbers given for typed text
// keys are the same text, mandate_max_amount is mandate.max_amount. A
// metadata key of another gateway (metadata.JUSPAY:… when the namespace is
// SERVICE) is that gateway's own entry: a GatewayMetadata entry sent as
// given, never moved to GatewayReferenceID.
func TestSessionRequestSpellings(t *testing.T) {
	body := `{"amount":100,"mandate_max_amount":"1000","options.create_mandate":"REQUIRED",` +
		`"metadata.JUSPAY:gateway_reference_id":"payu_test","customer_phone":9876543210}`
	var r SessionRequest
	require.NoError(t, json.Unmarshal([]byte(body), &r))
	require.Equal(t, Amount("100"), r.Amount)
	require.Equal(t, Amount("1000"), r.Mandate.MaxAmount)
	require.Empty(t, r.GatewayReferenceID)
	require.Equal(t, "9876543210", r.CustomerPhone)
	require.Equal(t, GatewayMetadataList{{Gateway: "JUSPAY", Key: "gateway_reference_id", Value: "payu_test"}}, r.GatewayMetadata)
	require.Nil(t, r.Extra)
	out, err := json.Marshal(&r)
	require.NoError(t, err)
	require.JSONEq(t, `{"amount":"100","mandate.max_amount":"1000","options.create_mandate":"REQUIRED",`+
		`"metadata.JUSPAY:gateway_reference_id":"payu_test","customer_phone":"9876543210"}`, string(out))
	requireSameSession(t, []byte(body), out)

	// The client's namespace decides where GatewayReferenceID goes; the
	// other gateway's entry is sent as given beside it.
	r.GatewayReferenceID = "ref"
	for ns, key := range map[string]string{DefaultNamespace: "metadata.SERVICE:gateway_reference_id", "ACME": "metadata.ACME:gateway_reference_id"} {
		sent, err := r.encode(ns)
		require.NoError(t, err)
		m := wiretest.Object(t, sent)
		require.Equal(t, "ref", m[key], "namespace %q: %s", ns, sent)
		require.Equal(t, "payu_test", m["metadata.JUSPAY:gateway_reference_id"])
		require.Len(t, m, 6, "%s", sent)
	}
	// In a client whose namespace is JUSPAY, that key belongs to
	// GatewayReferenceID: the entry may not set it too.
	var ve *ValidationError
	require.ErrorAs(t, r.validate("JUSPAY"), &ve)
	require.True(t, ve.Has("metadata.JUSPAY:gateway_reference_id"), "%v", ve)

	// With the own key present, the older spelling is an unknown key kept
	// in Extra.
	require.NoError(t, json.Unmarshal([]byte(`{"mandate.max_amount":"5","mandate_max_amount":"6",`+
		`"metadata.SERVICE:gateway_reference_id":"a","metadata.JUSPAY:gateway_reference_id":"b"}`), &r))
	require.Equal(t, Amount("5"), r.Mandate.MaxAmount)
	require.Equal(t, "a", r.GatewayReferenceID)
	require.Equal(t, map[string]any{"mandate_max_amount": "6"}, r.Extra)
	require.Equal(t, GatewayMetadataList{{Gateway: "JUSPAY", Key: "gateway_reference_id", Value: "b"}}, r.GatewayMetadata)
}

// A product_summary or payment_filter that cannot be decoded is reported at
// the exact path of the offending value, not just at its key, and the
// message does not repeat the path.
func TestSessionRequestUnmarshalNestedPaths(t *testing.T) {
	for _, tc := range []struct {
		name, field, value string
		path, msg          string
	}{
		{"summary item type", "product_summary", `"[[{\"type\":\"space\"}],[{\"type\":\"space\"},{\"type\":5}]]"`,
			"product_summary[1][1].type", "item type must be a string"},
		{"summary unknown type", "product_summary", `"[[{\"type\":\"Nope\"}]]"`,
			"product_summary[0][0].type", `unknown item type "Nope"`},
		{"summary item not an object", "product_summary", `"[[{\"type\":\"space\"}, 1]]"`,
			"product_summary[0][1]", "an item must be a JSON object"},
		{"summary not an array", "product_summary", `"{}"`,
			"product_summary", "must be a JSON array of lines"},
		{"summary not JSON", "product_summary", `"[[{"`,
			"product_summary", "not valid JSON"},
		{"filter flag", "payment_filter", `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true},{"paymentMethodType":"UPI","enable":"yes"}]}`,
			"payment_filter.options[1].enable", "must be a boolean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r SessionRequest
			err := json.Unmarshal([]byte(`{"order_id":"o",`+strconv.Quote(tc.field)+`:`+tc.value+`}`), &r)
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, 1, "%v", ve)
			require.Equal(t, tc.path, ve.Problems[0].Path)
			require.Contains(t, ve.Problems[0].Message, tc.msg)
			require.NotContains(t, ve.Problems[0].Message, tc.path+":", "the path is not repeated in the message")
		})
	}
}

// Whatever UnmarshalJSON accepts encodes, and decodes back to the same
// request.
func FuzzSessionRequestJSON(f *testing.F) {
	files, _ := filepath.Glob("testdata/session_*.json")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"mandate.start_date":"-62135596800","x":1e400,"product_summary":"[[{\"type\":\"space\",\"weight\":\"18\"}]]"}`))
	f.Add([]byte(`{"amount":1.0,"udf":{"a":[null,true,"\u00e9"]},"mandate.end_date":"9223372036854775807"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r SessionRequest
		if r.UnmarshalJSON(data) != nil {
			return
		}
		out, err := r.MarshalJSON()
		if err != nil {
			t.Fatalf("decoded request does not encode: %v", err)
		}
		var again SessionRequest
		if err := again.UnmarshalJSON(out); err != nil {
			t.Fatalf("encoded request does not decode: %v\n%s", err, out)
		}
		out2, err := again.MarshalJSON()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}

func stdString(t testing.TB, s string) string {
	t.Helper()
	b, err := marshalNoEscape(s)
	require.NoError(t, err)
	return string(b)
}

// Whatever text the fields hold, the session body is valid JSON and
// decodes back to the same values.
func FuzzSessionEncodeRoundTrip(f *testing.F) {
	f.Add("ord_1", "Asha <a&b>", "https://shop.example.com/r?a=1&b=2", "x\u2028y")
	f.Add("\x00", "\"quoted\"", "", "\\")
	f.Fuzz(func(t *testing.T, orderID, description, returnURL, extra string) {
		r := baseSession()
		r.OrderID, r.Description, r.ReturnURL = orderID, description, returnURL
		r.Extra = map[string]any{"udf1": extra}
		body, err := r.encode(DefaultNamespace)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("invalid JSON %q: %v", body, err)
		}
		want := func(s string) string { // what encoding/json makes of s
			var out string
			if err := json.Unmarshal([]byte(stdString(t, s)), &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
		if orderID != "" && m["order_id"] != want(orderID) {
			t.Fatalf("order_id %q", m["order_id"])
		}
		if description != "" && m["description"] != want(description) {
			t.Fatalf("description %q", m["description"])
		}
		if m["udf1"] != want(extra) {
			t.Fatalf("udf1 %q", m["udf1"])
		}
	})
}

// Decoding a session request names its own operation in the error, and
// the problem's path, so a pasted body that does not fit says where.
func TestSessionRequestDecodeErrorNamesTheOperation(t *testing.T) {
	var r SessionRequest
	err := json.Unmarshal([]byte(`{"action":"paymentPage","amount":true}`), &r)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("amount"), "%v", ve.Problems)
	require.Equal(t, "decode session request", ve.Op)
	require.True(t, strings.HasPrefix(err.Error(), "checkout: decode session request: invalid request: amount: "), err.Error())
	require.ErrorIs(t, err, ErrInvalidRequest)
}
