package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// The responses decode with encoding/json exactly as the client decodes
// them, keep Raw, and encode back to the service's JSON.
func TestResponsesJSONConformance(t *testing.T) {
	for _, s := range conformance.Files(t, "orders", "order_status_*.json") {
		if !s.ValidJSON() || isSealed(s.Data) {
			continue // robustness vectors and the encrypted envelope, not golden ones
		}
		t.Run(s.Name, func(t *testing.T) {
			want, err := decodeReply[OrderStatus](bytes.TrimSpace(s.Data)) // encoding/json hands over the value without surrounding space
			require.NoError(t, err)
			var got OrderStatus
			require.NoError(t, json.Unmarshal(s.Data, &got))
			require.Equal(t, want.Raw, got.Raw)
			require.Equal(t, *want, got)
			out, err := json.Marshal(got)
			require.NoError(t, err)
			require.JSONEq(t, string(s.Data), string(out))
		})
	}
	for _, dir := range []string{"orders", "refunds"} {
		for _, s := range conformance.Files(t, dir, "*.json") {
			if !s.ValidJSON() || strings.Contains(s.Name, "status") {
				continue
			}
			t.Run(s.Name, func(t *testing.T) {
				want, err := decodeReply[Order](bytes.TrimSpace(s.Data)) // encoding/json hands over the value without surrounding space
				require.NoError(t, err)
				var got Order
				require.NoError(t, json.Unmarshal(s.Data, &got))
				require.Equal(t, *want, got)
				out, err := json.Marshal(&got)
				require.NoError(t, err)
				require.JSONEq(t, string(s.Data), string(out))
			})
		}
	}
	for _, dir := range []string{"session", "payment_links"} {
		for _, s := range conformance.Files(t, dir, "*response*.json") {
			if !s.ValidJSON() {
				continue
			}
			t.Run(s.Name, func(t *testing.T) {
				want, err := decodeReply[Session](bytes.TrimSpace(s.Data)) // encoding/json hands over the value without surrounding space
				if err != nil {
					var got Session
					require.Error(t, json.Unmarshal(s.Data, &got), "same rule as CreateSession")
					return
				}
				var got Session
				require.NoError(t, json.Unmarshal(s.Data, &got))
				require.Equal(t, *want, got)
				var m map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(s.Data, &m))
				require.Equal(t, string(m["sdk_payload"]), string(got.SDKPayload), "byte for byte")
				out, err := json.Marshal(got)
				require.NoError(t, err)
				require.JSONEq(t, string(s.Data), string(out))
			})
		}
	}
}

// Inside a caller's struct, the response types round-trip through a cache.
func TestResponsesNestedRoundTrip(t *testing.T) {
	body := []byte(`{"status":"NEW","id":"ordeh_1","order_id":"o1","sdk_payload":{"b":1, "a":"x"}}`)
	var s Session
	require.NoError(t, json.Unmarshal(body, &s))
	body[0] = 'X' // the decoder's buffer may be reused: Raw must be a copy
	require.Equal(t, byte('{'), s.Raw[0])
	require.Equal(t, `{"b":1, "a":"x"}`, string(s.SDKPayload))

	type cached struct {
		Session *Session `json:"session"`
	}
	out, err := json.Marshal(cached{&s})
	require.NoError(t, err)
	var back cached
	require.NoError(t, json.Unmarshal(out, &back))
	require.Equal(t, s.OrderID, back.Session.OrderID)
	require.JSONEq(t, string(s.SDKPayload), string(back.Session.SDKPayload))
}

// A value built by hand (no Raw) encodes its typed fields under the
// service's keys, and decodes back to the same fields.
func TestResponsesWithoutRaw(t *testing.T) {
	exp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := Session{Status: "NEW", ID: "ordeh_1", OrderID: "o1",
		PaymentLinks: PaymentLinks{Web: "https://p/web", Expiry: Timestamp{exp}}, SDKPayload: json.RawMessage(`{"a":1}`)}
	out, err := json.Marshal(s)
	require.NoError(t, err)
	require.JSONEq(t, `{"status":"NEW","id":"ordeh_1","order_id":"o1","payment_links":{"web":"https://p/web","expiry":"2026-01-02T03:04:05Z"},"sdk_payload":{"a":1}}`, string(out))
	var s2 Session
	require.NoError(t, json.Unmarshal(out, &s2))
	s2.Raw = nil
	require.Equal(t, s, s2)

	o := Order{Status: "NEW", StatusID: 10, ID: "ordeh_2", OrderID: "o2",
		CollectionLinks: CollectionLinkURLs{QR: "https://q", Intent: "upi://pay"}, ClientAuthToken: "tkn"}
	out, err = json.Marshal(o)
	require.NoError(t, err)
	require.JSONEq(t, `{"status":"NEW","status_id":10,"id":"ordeh_2","order_id":"o2",
		"links":{"payment_collection_links":{"QR":"https://q","INTENT":"upi://pay"}},"juspay":{"client_auth_token":"tkn"}}`, string(out))
	var o2 Order
	require.NoError(t, json.Unmarshal(out, &o2))
	o2.Raw = nil
	require.Equal(t, o, o2)

	st := OrderStatus{OrderID: "o3", Status: "CHARGED", StatusID: 21, Amount: "10.50", AmountRefunded: "1.00",
		Refunded: true, GatewayID: 7, DateCreated: Timestamp{exp},
		Refunds: []Refund{{ID: "r1", UniqueRequestID: "u1", Status: "SUCCESS", Amount: "1.00", Created: Timestamp{exp}, SentToGateway: true}}}
	out, err = json.Marshal(&st)
	require.NoError(t, err)
	require.Contains(t, string(out), `"amount":"10.50"`, "an Amount encodes as text")
	require.Contains(t, string(out), `"unique_request_id":"u1"`)
	var st2 OrderStatus
	require.NoError(t, json.Unmarshal(out, &st2))
	require.JSONEq(t, `{"id":"r1","unique_request_id":"u1","status":"SUCCESS","amount":"1.00",
		"created":"2026-01-02T03:04:05Z","sent_to_gateway":true}`, string(st2.Refunds[0].Raw), "each refund keeps its Raw")
	st2.Raw, st2.Refunds[0].Raw = nil, nil
	require.Equal(t, st, st2)

	var r Refund
	in := `{"id":"r","amount":"5","sent_to_gateway":true,"created":"FILTERED"}`
	require.NoError(t, json.Unmarshal([]byte(in), &r))
	require.Equal(t, Refund{ID: "r", Amount: "5.00", SentToGateway: true, Raw: RawJSON(in)}, r)
	out, err = json.Marshal(r)
	require.NoError(t, err)
	require.Equal(t, in, string(out), "Raw wins")
	// A value that is not an object (the service's "FILTERED" for a
	// redacted element) changes nothing, so that it never stops a whole
	// reply from decoding; the request path refuses a reply of the wrong
	// shape before it decodes it (TestGetOrderRefusesOtherShapes).
	before := r
	require.NoError(t, json.Unmarshal([]byte(`"FILTERED"`), &r))
	require.Equal(t, before, r)
	var none OrderStatus
	require.NoError(t, json.Unmarshal([]byte(`[1]`), &none))
	require.Equal(t, OrderStatus{}, none)
}

// A reply printed with fmt shows its Raw as the JSON text, not as hundreds
// of decimal bytes, and Raw stays the service's bytes.
func TestRawPrintsAsText(t *testing.T) {
	body := `{"order_id":"o1","status":"CHARGED","payment_gateway_response":{"gateway_response":{"rrn":"1"}}}`
	st, err := decodeReply[OrderStatus]([]byte(body))
	require.NoError(t, err)
	out := fmt.Sprintf("%+v", *st)
	require.Contains(t, out, "Raw:"+body)
	require.Contains(t, fmt.Sprintf("%+v", *st.PaymentGatewayResponse), `Full:{"rrn":"1"}`)
	require.NotContains(t, out, "Raw:[123 34", "not the bytes in decimal")
	require.Equal(t, body, fmt.Sprintf("%v", st.Raw))
	require.Equal(t, body, fmt.Sprintf("%s", st.Raw))
	require.Equal(t, strconv.Quote(body), fmt.Sprintf("%q", st.Raw))
	require.Equal(t, fmt.Sprintf("%x", []byte(body)), fmt.Sprintf("%x", st.Raw))
	require.Equal(t, "checkout.RawJSON("+strconv.Quote(body)+")", fmt.Sprintf("%#v", st.Raw))
	require.Equal(t, []byte(body), []byte(st.Raw), "byte for byte")

	o, err := decodeReply[Order]([]byte(`{"order_id":"o1","status":"NEW"}`))
	require.NoError(t, err)
	require.Contains(t, fmt.Sprintf("%+v", o), `Raw:{"order_id":"o1","status":"NEW"}`)

	b, err := json.Marshal(struct{ R RawJSON }{RawJSON(`{"a":1}`)})
	require.NoError(t, err)
	require.Equal(t, `{"R":{"a":1}}`, string(b))
	var back struct{ R RawJSON }
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, RawJSON(`{"a":1}`), back.R)
}
