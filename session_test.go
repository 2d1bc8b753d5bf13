package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
	"github.com/payorch/checkout-go/paymentfilter"
	ps "github.com/payorch/checkout-go/productsummary"
)

// baseSession is a valid paymentPage request.
func baseSession() *SessionRequest {
	return &SessionRequest{
		OrderID:             "order_dummy_1",
		Amount:              "100.00",
		CustomerID:          "customer_id",
		CustomerPhone:       "8888899999",
		CustomerEmail:       "asdf@gmail.com",
		PaymentPageClientID: "picasso",
		Action:              PaymentPage,
	}
}

// shopSession is a valid paymentPage request for the builder goldens.
func shopSession(build func(r *SessionRequest)) *SessionRequest {
	r := &SessionRequest{
		OrderID: "ord_1001", Amount: AmountFromMinor(149900), CustomerID: "cust_42", CustomerPhone: "9876543210",
		CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: PaymentPage,
	}
	build(r)
	return r
}

// Each request encodes to its golden body (the bytes CreateSession sends;
// json.Marshal gives the same value, HTML escaped), and the golden reads
// back into a request that sends the same bytes. The builder goldens follow
// spec §2.4 and §2.5.
func TestSessionEncodeGolden(t *testing.T) {
	bins, err := paymentfilter.ParseBINRange("459000::460000")
	require.NoError(t, err)
	tests := []struct {
		golden string
		req    *SessionRequest
	}{
		{"session_payment_page.json", &SessionRequest{
			OrderID: "testing-order-one", Amount: "1.00", CustomerID: "testing-customer-one",
			CustomerEmail: "test@mail.com", CustomerPhone: "9876543210", PaymentPageClientID: "yourClientId",
			Action: PaymentPage, ReturnURL: "https://shop.merchant.com", Description: "Complete your payment",
			FirstName: "John", LastName: "wick", GatewayReferenceID: "payu_test",
		}},
		{"session_payment_management.json", &SessionRequest{
			CustomerID: "dummyCustId", CustomerPhone: "9876543210", CustomerEmail: "dummyemail@gmail.com",
			PaymentPageClientID: "<YOUR_CLIENT_ID>", Action: PaymentManagement,
		}},
		{"session_quick_pay.json", &SessionRequest{
			OrderID: "yourUniqueOrderId", Amount: "10.00", CustomerID: "dummyCustId", CustomerPhone: "9876543210",
			CustomerEmail: "dummyemail@gmail.com", PaymentPageClientID: "<YOUR_CLIENT_ID>", Action: QuickPay,
		}},
		{"session_mandate_required.json", &SessionRequest{
			OrderID: "yourUniqueOrderId", Amount: "10.00", CustomerID: "yourUniqueCustId", CustomerPhone: "9876543210",
			CustomerEmail: "dummyemail@gmail.com", PaymentPageClientID: "<YOUR_CLIENT_ID>", Action: PaymentPage,
			Mandate: &Mandate{
				Option:    MandateRequired,
				MaxAmount: "1000.00",
				StartDate: time.Unix(1644420442, 0).In(time.FixedZone("IST", 19800)),
				EndDate:   time.Unix(1646234827, 0),
			},
		}},
		{"session_filter_emi_summary_webhook.json", func() *SessionRequest {
			r := baseSession()
			r.ReturnURL = "https://shop.example.com/return?order=order_dummy_1&step=2"
			r.Description = "This is Payment Description."
			r.FirstName, r.LastName = "John", "Doe"
			r.PaymentFilter = &paymentfilter.Filter{AllowDefaultOptions: true, Options: []paymentfilter.Option{}}
			r.EMI = emi.ShowWithoutCards
			r.ProductSummary = ps.New().Line(ps.Text{Text: "Total", FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "₹100.00"})
			r.GatewayReferenceID = "payu_test"
			r.WebhookURL = "https://shop.example.com/webhooks/checkout"
			return r
		}()},
		{"session_extra.json", func() *SessionRequest {
			r := baseSession()
			r.UDF1, r.UDF10, r.Currency = "udf1-dummy", "a<b & c>d", "INR"
			r.UPIDeepLinks = true
			r.GatewayMetadata = GatewayMetadataList{{Gateway: "AMAZONPAY", Key: "gateway_reference_id", Value: "amzn_1"}}
			r.Extra = map[string]any{
				"mobile_country_code": "+91", "send_mail": true, "gateway_id": "12", "metadata.expiryInMins": "3397",
				"mandate.block_funds": false,
			}
			return r
		}()},
		{"session_hide_wallet.json", shopSession(func(r *SessionRequest) {
			r.PaymentFilter = paymentfilter.New().Hide(paymentfilter.Wallet)
		})},
		{"session_only_upi_nocost_emi.json", shopSession(func(r *SessionRequest) {
			r.PaymentFilter = paymentfilter.Only(paymentfilter.UPI).EMI(emi.New().OnlyNoCost())
			r.EMI = emi.Show
		})},
		{"session_card_upi_locks_mandate.json", shopSession(func(r *SessionRequest) {
			r.PaymentFilter = paymentfilter.New().HideCardTypes(paymentfilter.Credit).HideBINRanges(bins).
				HideUPIHandles("@ybl").HideUPIApps("com.phonepe.app").
				HideMandateMethods(paymentfilter.DefaultMandatePrefix, paymentfilter.NB, "NB_HDFC")
			r.ProductSummary = ps.New().EmptyLine().Divider(1, "#E0E0E0")
			r.Mandate = &Mandate{Option: MandateOptional, MaxAmount: "5000.00",
				StartDate: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), EndDate: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}
		})},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			require.NoError(t, tt.req.Validate())
			body, err := tt.req.encode(DefaultNamespace)
			require.NoError(t, err)
			wiretest.GoldenIndented(t, tt.golden, body)
			viaJSON, err := json.Marshal(tt.req)
			require.NoError(t, err)
			require.JSONEq(t, string(body), string(viaJSON))

			var back SessionRequest
			require.NoError(t, json.Unmarshal(body, &back))
			require.NoError(t, back.Validate())
			again, err := back.encode(DefaultNamespace)
			require.NoError(t, err)
			require.Equal(t, string(body), string(again))
		})
	}
}

// The published session bodies use the same flat dotted keys and the same
// values as ours: every key of a published body that a typed field covers
// must be one we emit for the equivalent request.
func TestSessionKeysMatchPublishedBodies(t *testing.T) {
	for _, s := range conformance.Files(t, "session", "session_request_*.json") {
		t.Run(s.Name, func(t *testing.T) {
			var m map[string]any
			require.NoError(t, json.Unmarshal(s.Data, &m))
			for k := range m {
				if strings.HasPrefix(k, "billing_address_") || k == "service" || k == "currency" ||
					strings.HasPrefix(k, "options.get_") {
					continue // not typed fields of a session request: Extra
				}
				require.True(t, sessionKeys()[k], "published key %q is not a typed field", k)
			}
		})
	}
}

func TestSessionValidate(t *testing.T) {
	runRequestCases(t, baseSession, []requestCase[SessionRequest]{
		{"valid", func(*SessionRequest) {}, nil},
		{"missing everything", func(r *SessionRequest) { *r = SessionRequest{} },
			[]string{"action", "customer_id", "payment_page_client_id"}},
		{"paymentPage without its fields", func(r *SessionRequest) {
			r.OrderID, r.Amount, r.CustomerPhone, r.CustomerEmail = "", "", " ", ""
		}, []string{"order_id", "amount", "customer_phone"}},
		{"quickPay without amount", func(r *SessionRequest) { r.Action, r.Amount = QuickPay, "" }, []string{"amount"}},
		{"unknown action passes", func(r *SessionRequest) { r.Action = "enach" }, nil},
		{"unknown action needs only what every action needs", func(r *SessionRequest) {
			r.Action, r.OrderID, r.Amount, r.CustomerPhone, r.CustomerEmail = "enach", "", "", "", ""
		}, nil},
		{"unknown action still needs the client id", func(r *SessionRequest) {
			r.Action, r.PaymentPageClientID = "PaymentPage", ""
		}, []string{"payment_page_client_id"}},
		{"guest paymentManagement", func(r *SessionRequest) {
			*r = SessionRequest{CustomerID: "customer", PaymentPageClientID: "clientId", Action: PaymentManagement}
		}, nil},
		{"paymentManagement with order and amount is sent", func(r *SessionRequest) { r.Action = PaymentManagement }, nil},
		{"amounts the service takes", func(r *SessionRequest) { r.Amount = "99.5" }, nil},
		{"amount without places", func(r *SessionRequest) { r.Amount = "100" }, nil},
		{"amount three places", func(r *SessionRequest) { r.Amount = "99.505" }, []string{"amount"}},
		{"amount float text", func(r *SessionRequest) { r.Amount = "1e2" }, []string{"amount"}},
		{"amount negative", func(r *SessionRequest) { r.Amount = AmountFromMinor(-500) }, []string{"amount"}},
		{"blank customer", func(r *SessionRequest) { r.CustomerID = "  " }, []string{"customer_id"}},
		{"relative return url is sent", func(r *SessionRequest) { r.ReturnURL = "/back" }, nil},
		{"http webhook", func(r *SessionRequest) { r.WebhookURL = "http://shop.example.com/hook" },
			[]string{"metadata.webhook_url"}},
		{"relative webhook", func(r *SessionRequest) { r.WebhookURL = "/hook" }, []string{"metadata.webhook_url"}},
		{"loopback http webhook is fine", func(r *SessionRequest) { r.WebhookURL = "http://127.0.0.1:8080/hook" }, nil},
		{"mandate option without amount", func(r *SessionRequest) { r.Mandate = &Mandate{Option: MandateRequired} },
			[]string{"mandate.max_amount"}},
		{"mandate keys without option are sent", func(r *SessionRequest) { r.Mandate = &Mandate{MaxAmount: "5"} }, nil},
		{"mandate unknown option", func(r *SessionRequest) { r.Mandate = &Mandate{Option: "required", MaxAmount: "1.00"} }, nil},
		{"mandate bad amount", func(r *SessionRequest) { r.Mandate = &Mandate{Option: MandateOptional, MaxAmount: "1,000"} },
			[]string{"mandate.max_amount"}},
		{"mandate end before start is sent", func(r *SessionRequest) {
			r.Mandate = &Mandate{Option: MandateOptional, MaxAmount: "1000.00",
				StartDate: time.Unix(1646234827, 0), EndDate: time.Unix(1644420442, 0)}
		}, nil},
		{"extra collides with typed key", func(r *SessionRequest) {
			r.WebhookURL = "https://shop.example/hook"
			r.Extra = map[string]any{"order_id": "x", "metadata.webhook_url": "https://a", "udf1": "ok"}
		}, []string{"metadata.webhook_url", "order_id"}},
		{"extra may carry a typed key whose field is empty", func(r *SessionRequest) {
			r.Extra = map[string]any{"description": "x", "udf2": "y", "metadata.webhook_url": "https://a"}
		}, nil},
		{"extra order_id for paymentManagement is sent (lint advises)", func(r *SessionRequest) {
			r.Action, r.OrderID, r.Amount = PaymentManagement, "", ""
			r.Extra = map[string]any{"order_id": "sneaky"}
		}, nil},
		{"extra empty key is sent", func(r *SessionRequest) { r.Extra = map[string]any{"": 1} }, nil},
		{"bad product summary", func(r *SessionRequest) {
			r.ProductSummary = new(ps.Summary{ps.Line{ps.Divider{}}})
		}, []string{"product_summary[0][0].thickness"}},
	}, validatePaths)
}

// Problems found by the sub-packages come back with their full paths,
// beside the session's own, in one *ValidationError.
func TestSessionValidateMergesSubPackageProblems(t *testing.T) {
	r := shopSession(func(r *SessionRequest) {
		r.CustomerEmail = ""
		r.PaymentFilter = &paymentfilter.Filter{AllowDefaultOptions: true, Options: []paymentfilter.Option{
			{PaymentMethodType: paymentfilter.Card, Enable: true,
				CardFilters: []paymentfilter.CardFilter{{CardTypes: []paymentfilter.CardType{"credit"}}}},
		}}
		r.EMI = "showemi"
		r.ProductSummary = new(ps.Summary{ps.Line{ps.Text{Text: "x", Color: "red"}}})
	})
	var ve *ValidationError
	require.ErrorAs(t, r.Validate(), &ve)
	require.True(t, ve.Has("sdk_udf"), "%v", ve.Problems)
	var pf, psum bool
	for _, p := range ve.Problems {
		pf = pf || strings.HasPrefix(p.Path, "payment_filter.options[0].")
		psum = psum || strings.HasPrefix(p.Path, "product_summary[0][0].")
	}
	require.True(t, pf, "payment filter problems keep their paths: %v", ve.Problems)
	require.True(t, psum, "product summary problems keep their paths: %v", ve.Problems)
}

// The problems of the filter reach the session's Validate at their paths: a
// second block of a type, found from the blocks, and a rejected EMI call.
func TestSessionValidateReportsFluentCallProblems(t *testing.T) {
	r := shopSession(func(r *SessionRequest) {
		r.PaymentFilter = paymentfilter.New().Hide(paymentfilter.Wallet).Show(paymentfilter.Wallet).
			EMI(emi.New().Enable(emi.NoCost).Disable(emi.Plan(9)))
	})
	var ve *ValidationError
	require.ErrorAs(t, r.Validate(), &ve)
	require.Equal(t, []Problem{
		{Path: "payment_filter.options[1]", Message: "duplicate WALLET block (the first is options[0]): this one shows WALLET as a whole (enable: true, no paymentMethods), " +
			"the first hides WALLET as a whole (enable: false, no paymentMethods); the service honours only the first block of a type, and one block cannot do both"},
		{Path: "payment_filter.emiOptions", Message: "Disable(Plan(9)): unknown plan 9: want Standard, LowCost or NoCost"},
	}, ve.Problems)
}

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

// Every published session body decodes, passes Validate and reaches the
// service with its meaning, through json.Marshal and CreateSession alike
// (amounts given as numbers sent as the same text, the older
// mandate_max_amount as mandate.max_amount), and reads back the same.
func TestSessionPublishedBodiesPass(t *testing.T) {
	c, srv := replyingClient(t, `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{"requestId":"r"}}`)
	checked := 0
	for _, s := range sessionBodies(t) {
		t.Run(s.Name, func(t *testing.T) {
			var r SessionRequest
			require.NoError(t, json.Unmarshal(s.Data, &r))
			require.NoError(t, r.Validate())
			out, err := json.Marshal(&r)
			require.NoError(t, err)
			requireSameSession(t, s.Data, out)
			_, err = c.CreateSession(context.Background(), &r)
			require.NoError(t, err)
			requireSameSession(t, s.Data, srv.last(t).Body, "what CreateSession sends")

			var again SessionRequest
			require.NoError(t, json.Unmarshal(out, &again))
			again2, err := json.Marshal(&again)
			require.NoError(t, err)
			require.Equal(t, string(out), string(again2), "reads back to what it sends")
			checked++
		})
	}
	require.GreaterOrEqual(t, checked, 14)
}

// Values of the samples land in the typed fields as written; other keys
// go to Extra, numbers as json.Number so that their text is unchanged.
func TestSessionRequestUnmarshalFields(t *testing.T) {
	data := conformance.Files(t, "session", "session_request_enach_mandate_required.body.json")
	require.NotEmpty(t, data)
	var r SessionRequest
	require.NoError(t, json.Unmarshal(data[0].Data, &r))
	require.Equal(t, Action("enach"), r.Action, "kept as sent")
	require.NoError(t, r.Validate(), "an action the SDK does not know passes")
	require.Equal(t, Amount("10.00"), r.Amount)
	require.Equal(t, &Mandate{
		Option: MandateRequired, MaxAmount: "1000.00",
		StartDate: time.Unix(1644420442, 0).UTC(), EndDate: time.Unix(1646234827, 0).UTC(),
	}, r.Mandate)
	require.Equal(t, map[string]any{"service": "in.juspay.ec"}, r.Extra)

	var basic SessionRequest
	require.NoError(t, json.Unmarshal([]byte(`{"amount":"1.0","UDF2":"b","x":{"y":[1,"a"]},"n":2.50,"mandate.end_date":1646234827}`), &basic))
	require.Equal(t, Amount("1.0"), basic.Amount, "no normalisation of a request amount")
	require.Equal(t, "b", basic.UDF2, "keys match without regard to case, as encoding/json reads them")
	require.Equal(t, time.Unix(1646234827, 0).UTC(), basic.Mandate.EndDate)
	require.Equal(t, map[string]any{"x": map[string]any{"y": []any{json.Number("1"), "a"}}, "n": json.Number("2.50")}, basic.Extra)
	out, err := json.Marshal(basic)
	require.NoError(t, err)
	require.JSONEq(t, `{"amount":"1.0","udf2":"b","x":{"y":[1,"a"]},"n":2.50,"mandate.end_date":"1646234827"}`, string(out))
	require.Contains(t, string(out), `"n":2.50`, "number text kept in Extra")

	var bad SessionRequest
	require.NoError(t, json.Unmarshal([]byte(`{"amount":"1,00"}`), &bad))
	requireProblemPaths(t, bad.Validate(), []string{"action", "amount", "customer_id", "payment_page_client_id"})
}

// A body that does not fit is a *ValidationError of its own operation at
// the exact path of the offending value, the message without the path; a
// failed decode changes nothing, and null changes nothing either.
func TestSessionRequestUnmarshalErrors(t *testing.T) {
	for _, tc := range []struct{ body, path, msg string }{
		{`{"order_id":true}`, "order_id", "cannot be a JSON bool"},
		{`{"customer_id":{"a":1}}`, "customer_id", "cannot be a JSON object"},
		{`{"udf1":1.5}`, "udf1", "cannot be a JSON number"},
		{`{"options.create_mandate":5}`, "options.create_mandate", "cannot be a JSON number"},
		{`{"amount":true}`, "amount", "must be text or a number"},
		{`{"mandate_max_amount":false}`, "mandate_max_amount", "must be text or a number"},
		{`{"mandate.start_date":"16444x"}`, "mandate.start_date", "Unix seconds"},
		{`{"mandate.end_date":"0123"}`, "mandate.end_date", "Unix seconds"},
		{`{"mandate.start_date":"-62135596800"}`, "mandate.start_date", "Unix seconds"},
		{`{"product_summary":"[[{\"type\":\"space\"}],[{\"type\":\"space\"},{\"type\":5}]]"}`, "product_summary[1][1].type", "item type must be a string"},
		{`{"product_summary":"[[{\"type\":\"Nope\"}]]"}`, "product_summary[0][0].type", `unknown item type "Nope"`},
		{`{"product_summary":"{}"}`, "product_summary", "must be a JSON array of lines"},
		{`{"product_summary":[[{"type":"space"}]]}`, "product_summary", "cannot be a JSON array"},
		{`{"payment_filter":"FILTERED"}`, "payment_filter", ""},
		{`{"payment_filter":{"allowDefaultOptions":true,"options":[{"paymentMethodType":"CARD","enable":true},{"paymentMethodType":"UPI","enable":"yes"}]}}`,
			"payment_filter.options.enable", "cannot be a JSON string"},
		{`[1]`, "", "cannot be a JSON array"},
	} {
		r := SessionRequest{OrderID: "keep"}
		err := json.Unmarshal([]byte(tc.body), &r)
		var ve *ValidationError
		require.ErrorAs(t, err, &ve, tc.body)
		require.Len(t, ve.Problems, 1, "%v", ve)
		require.Equal(t, tc.path, ve.Problems[0].Path, tc.body)
		require.Contains(t, ve.Problems[0].Message, tc.msg, tc.body)
		require.NotContains(t, ve.Problems[0].Message, tc.path+":", "the path is not repeated in the message")
		require.True(t, strings.HasPrefix(err.Error(), "checkout: decode session request: invalid request: "), err.Error())
		require.ErrorIs(t, err, ErrInvalidRequest)
		require.Equal(t, SessionRequest{OrderID: "keep"}, r, "a failed decode changes nothing")
	}
	r := SessionRequest{OrderID: "keep"}
	var ve *ValidationError
	require.ErrorAs(t, r.UnmarshalJSON([]byte("{\"udf1\":\"a\xffb\"}")), &ve)
	require.NoError(t, r.UnmarshalJSON([]byte(`null`)))
	require.Equal(t, "keep", r.OrderID)

	// Keys the service would not use, but which JSON can carry, go to
	// Extra (package lint points at them).
	require.NoError(t, json.Unmarshal([]byte(`{"udf\u0000":"x","":"y"}`), &r))
	require.Equal(t, map[string]any{"udf\x00": "x", "": "y"}, r.Extra)
}

// Other spellings the service's bodies use decode into the typed field and
// encode in the one canonical spelling: an amount given as a number is the
// same text, mandate_max_amount is mandate.max_amount. A metadata key of
// another gateway (metadata.JUSPAY:… when the namespace is SERVICE) is that
// gateway's own entry, sent as given, never GatewayReferenceID.
func TestSessionRequestSpellings(t *testing.T) {
	body := `{"amount":100,"mandate_max_amount":"1000","options.create_mandate":"REQUIRED",` +
		`"metadata.JUSPAY:gateway_reference_id":"payu_test","options.get_upi_deep_links":"true"}`
	var r SessionRequest
	require.NoError(t, json.Unmarshal([]byte(body), &r))
	require.Equal(t, Amount("100"), r.Amount)
	require.Equal(t, Amount("1000"), r.Mandate.MaxAmount)
	require.True(t, r.UPIDeepLinks)
	require.Empty(t, r.GatewayReferenceID)
	require.Equal(t, GatewayMetadataList{{Gateway: "JUSPAY", Key: "gateway_reference_id", Value: "payu_test"}}, r.GatewayMetadata)
	require.Nil(t, r.Extra)
	out, err := json.Marshal(&r)
	require.NoError(t, err)
	require.JSONEq(t, `{"amount":"100","mandate.max_amount":"1000","options.create_mandate":"REQUIRED",`+
		`"metadata.JUSPAY:gateway_reference_id":"payu_test","options.get_upi_deep_links":"true"}`, string(out))
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
	f.Add([]byte(`{"ORDER_ID":"a","order_id":"b","MANDATE_MAX_AMOUNT":"1","metadata.X:y":"z"}`))
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

// Whatever text the fields hold, the session body is valid JSON and
// decodes back to the same values as encoding/json makes of them.
func FuzzSessionEncodeRoundTrip(f *testing.F) {
	f.Add("ord_1", "Asha <a&b>", "x\u2028y")
	f.Add("\x00", "\"quoted\"", "\\")
	f.Fuzz(func(t *testing.T, orderID, description, extra string) {
		r := baseSession()
		r.OrderID, r.Description = orderID, description
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
			b, _ := json.Marshal(s)
			var out string
			_ = json.Unmarshal(b, &out)
			return out
		}
		if orderID != "" && m["order_id"] != want(orderID) || description != "" && m["description"] != want(description) ||
			m["udf1"] != want(extra) {
			t.Fatalf("%q", body)
		}
	})
}

// WithNamespace moves the gateway reference key of the session body; the
// key is the tag's, renamed, and written once.
func TestCreateSessionNamespace(t *testing.T) {
	c, srv := replyingClient(t, `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{"requestId":"r"}}`, WithNamespace("JUSPAY"))
	r := baseSession()
	r.GatewayReferenceID = "payu_test"
	_, err := c.CreateSession(context.Background(), r)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(srv.last(t).Body, &m))
	require.Equal(t, "payu_test", m["metadata.JUSPAY:gateway_reference_id"])
	require.NotContains(t, m, "metadata.SERVICE:gateway_reference_id")
	require.Equal(t, "payu_test", r.GatewayReferenceID, "the request is not changed")

	for _, ns := range []string{"", "A.B", "A:B", "A B", "A\x00"} {
		_, err := NewClient(testMerchant, testKey, WithBaseURL(srv.URL), WithNamespace(ns))
		require.ErrorIs(t, err, ErrInvalidOption, "%q", ns)
	}
	def := newTestClient(t, srv.URL)
	require.Equal(t, DefaultNamespace, def.Namespace())
}

func TestSessionExtraNotEncodable(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	r := baseSession()
	r.Extra = map[string]any{"udf1": func() {}}
	_, err := c.CreateSession(context.Background(), r)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("udf1"))
	require.Zero(t, srv.count.Load(), "nothing may be sent when validation fails")
}

func TestCreateSessionValidationSendsNothing(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	_, err := c.CreateSession(context.Background(), &SessionRequest{Action: PaymentPage, Amount: "5.001"})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.True(t, ve.Has("order_id"))
	require.True(t, ve.Has("amount"))
	require.True(t, ve.Has("customer_phone"))
	require.False(t, ve.Has("customer_email"), "the service's own bodies leave customer_email out")
	require.Equal(t, "create session", ve.Op)
	require.True(t, strings.HasPrefix(err.Error(), "checkout: create session: invalid request: "), err.Error())
	require.ErrorIs(t, err, ErrInvalidRequest)
	_, err = c.CreateSession(context.Background(), nil)
	require.ErrorAs(t, err, &ve)
	require.Zero(t, srv.count.Load())
}

// sessionKeeping returns what CreateSession makes of the reply body,
// requiring that it keeps body as Raw and payload as SDKPayload byte for
// byte.
func sessionKeeping(t *testing.T, body, payload string) *Session {
	t.Helper()
	c, _ := replyingClient(t, body)
	s, err := c.CreateSession(context.Background(), baseSession())
	require.NoError(t, err)
	require.True(t, bytes.Equal([]byte(payload), s.SDKPayload), "got %s", s.SDKPayload)
	require.True(t, bytes.Equal([]byte(body), s.Raw))
	return s
}

// A response whose sdk_payload has odd whitespace, unusual key order and \u
// escapes comes back byte for byte.
func TestSessionSDKPayloadExactBytes(t *testing.T) {
	payload := "{ \"service\" :\"in.example.hyperpay\",\n\t\"requestId\":\"12398b5571d74c3388a74004bc24370c\" ,  " +
		"\"payload\":{\"z\":1,\"a\":[ 1,2 , 3 ],\"name\":\"Jos\\u00e9 \\u20b9 \\ud83d\\ude00\",\"x\":1.50,\"e\":1E3}  }"
	body := "{\"status\":\"NEW\",\"id\":\"ordeh_1\",\"sdk_payload\":  " + payload + "  ,\"order_id\":\"order_dummy_1\"}"
	s := sessionKeeping(t, body, payload)
	require.Equal(t, "NEW", s.Status)
	require.Equal(t, "ordeh_1", s.ID)
	require.Equal(t, "order_dummy_1", s.OrderID)
}

// When a field of the reply has an unexpected type, the lenient second
// decode still keeps the payload's bytes exactly.
func TestSessionSDKPayloadExactBytesLenient(t *testing.T) {
	payload := "{ \"a\" :\t[1, 2 ],\n \"b\":\"\\u00e9\" }"
	body := `{"status":{"x":1},"id":7,"order_id":"order_dummy_1","payment_links":"FILTERED","sdk_payload": ` + payload + ` }`
	s := sessionKeeping(t, body, payload)
	require.Empty(t, s.ID, "a number where the service writes text is left to Raw")
	require.Empty(t, s.Status)
	require.Equal(t, PaymentLinks{}, s.PaymentLinks)
}

func TestSessionWithoutPayloadIsAnError(t *testing.T) {
	for _, body := range []string{`{"status":"NEW"}`, `{"sdk_payload":"FILTERED"}`, `{"sdk_payload":null}`, `[]`, `not json`} {
		c, _ := replyingClient(t, body)
		_, err := c.CreateSession(context.Background(), baseSession())
		require.Error(t, err, body)
		require.Contains(t, err.Error(), "create session")
	}
}

// Every published session reply that is valid JSON decodes, with the
// payload's bytes kept exactly.
func TestSessionDecodeConformance(t *testing.T) {
	samples := append(conformance.Files(t, "session", "session_response_*.json"),
		conformance.Files(t, "payment_links", "*response*.json")...)
	samples = append(samples, conformance.Files(t, "payment_links", "*200*.json")...)
	decoded := 0
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			if !s.ValidJSON() {
				_, err := decodeReply[Session](s.Data)
				require.Error(t, err, "invalid JSON must not decode")
				return
			}
			sess, err := decodeReply[Session](s.Data)
			require.NoError(t, err)
			var generic struct {
				Status       string          `json:"status"`
				ID           string          `json:"id"`
				OrderID      string          `json:"order_id"`
				SDKPayload   json.RawMessage `json:"sdk_payload"`
				PaymentLinks struct {
					Web string `json:"web"`
				} `json:"payment_links"`
			}
			require.NoError(t, json.Unmarshal(s.Data, &generic))
			require.Equal(t, generic.Status, sess.Status)
			require.Equal(t, generic.ID, sess.ID)
			require.Equal(t, generic.OrderID, sess.OrderID)
			require.Equal(t, generic.PaymentLinks.Web, sess.PaymentLinks.Web)
			require.NotEmpty(t, sess.SDKPayload)
			require.True(t, bytes.Contains(s.Data, sess.SDKPayload), "payload is not a verbatim slice of the body")
			require.True(t, bytes.Equal(s.Data, sess.Raw))
			decoded++
		})
	}
	require.Positive(t, decoded)
}

func TestCreateSessionWire(t *testing.T) {
	c, srv := replyingClient(t, `{"status":"NEW","order_id":"$ORDER_ID","sdk_payload":{"requestId":"r"}}`, WithUserAgent("shop/1.4"))
	_, err := c.CreateSession(context.Background(), baseSession(), WithRoutingID("cust-7"), WithHeader("X-Trace", "t1"))
	require.NoError(t, err)
	got := srv.last(t)
	require.Equal(t, http.MethodPost, got.Method)
	require.Equal(t, "/session", got.RequestURI)
	require.Equal(t, testAuth, got.Header.Get("Authorization"))
	require.Equal(t, testMerchant, got.Header.Get("X-Merchantid"))
	require.Equal(t, "application/json", got.Header.Get("Content-Type"))
	require.Equal(t, "cust-7", got.Header.Get("X-Routing-Id"))
	require.Equal(t, "t1", got.Header.Get("X-Trace"))
	require.Empty(t, got.Header.Values("Version"), "the session call carries no version header by default")
	require.True(t, strings.HasPrefix(got.Header.Get("User-Agent"), "shop/1.4 checkout-go/"))
	want, err := baseSession().encode(DefaultNamespace)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got.Body))

	_, err = c.CreateSession(context.Background(), baseSession(), WithAPIVersion("2024-01-15"))
	require.NoError(t, err)
	require.Equal(t, "2024-01-15", srv.last(t).Header.Get("Version"))
}

func TestCreateSessionBadRequestOption(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	for _, o := range []RequestOption{
		WithHeader("Authorization", "Basic x"), WithHeader("x-merchantid", "other"), WithHeader("bad name", "v"),
		WithHeader("X-Ok", "line\nbreak"), WithRoutingID(""), WithAPIVersion("2024-1-5"), WithHeader("version", "2020-01-01"),
		WithHeader("accept", "text/html"), WithHeader("User-Agent", "x"),
	} {
		_, err := c.CreateSession(context.Background(), baseSession(), o)
		require.ErrorIs(t, err, ErrInvalidOption)
	}
	require.Zero(t, srv.count.Load())
}

func TestCreateSessionAPIError(t *testing.T) {
	srv := newRecorder(t, reply{status: 400, body: `{"status":"Bad Request","error_code":"Mandatory fields are missing",` +
		`"error_message":"Mandatory fields are missing","error_info":{"code":"INVALID_INPUT","fields":[{"field_name":"currency","reason":"missing"}]}}`})
	c := newTestClient(t, srv.URL)
	_, err := c.CreateSession(context.Background(), baseSession())
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrInvalidRequest)
	require.False(t, errors.Is(err, ErrNotFound))
	require.Equal(t, "create session", ae.Operation)
	require.Equal(t, 400, ae.HTTPStatus)
	require.Equal(t, "currency", ae.Info.Fields[0].FieldName)
	require.EqualValues(t, 1, srv.count.Load(), "a 400 is not retried")
}

// Validation is linear in the size of the request: 100,000
// Extra keys, some holding nested values, take well under a second, where
// a pairwise check would run for minutes; the test catches that without a
// timer (no timing assertions in unit tests), and a key a typed field owns
// is still found at the very end.
func TestSessionValidateLinear(t *testing.T) {
	const n = 100_000
	r := baseSession()
	r.Extra = make(map[string]any, n)
	for i := range n {
		r.Extra["udf_"+strconv.Itoa(i)] = map[string]any{"a": []any{"x", json.Number("1")}}
	}
	require.NoError(t, r.Validate())
	r.GatewayReferenceID = "ref"
	r.Extra["metadata.SERVICE:gateway_reference_id"] = "x"
	requireProblemPaths(t, r.Validate(), []string{"metadata.SERVICE:gateway_reference_id"})
}

// A session prints every one of its fields, by the names its declaration
// gives them, under every verb, with the client auth token of its
// sdk_payload redacted; printing leaves SDKPayload's bytes as they were.
func TestSessionPrintsEveryFieldRedacted(t *testing.T) {
	const tok = "tkn_SECRET_session_9"
	payload := `{"requestId":"r1","payload":{"clientAuthToken":"` + tok + `","action":"paymentPage"}}`
	s, err := decodeReply[Session]([]byte(`{"status":"NEW","id":"ordeh_1","order_id":"o1","sdk_payload":` + payload + `}`))
	require.NoError(t, err)
	s.Replayed = true
	plus := fmt.Sprintf("%+v", *s)
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Session]()) {
		require.Contains(t, plus, f.Name+":", "%%+v names %s", f.Name)
	}
	require.Contains(t, plus, "Replayed:true")
	require.True(t, strings.HasPrefix(fmt.Sprintf("%#v", *s), "checkout.Session{"), fmt.Sprintf("%#v", *s))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		require.NotContains(t, fmt.Sprintf(verb, *s), tok, verb)
		require.NotContains(t, fmt.Sprintf(verb, s), tok, verb)
	}
	require.Contains(t, fmt.Sprintf("%s", *s), `"clientAuthToken":"[REDACTED]"`, "the payload prints as its JSON under %%s")
	require.Equal(t, payload, string(s.SDKPayload), "printing changes nothing")
}
