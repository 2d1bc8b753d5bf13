package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// A session reply's sdk_payload is kept byte for byte, and the reply
// encodes back to the service's JSON.
func TestResponsesJSONConformance(t *testing.T) {
	for _, dir := range []string{"session", "payment_links"} {
		for _, s := range conformance.Files(t, dir, "*response*.json") {
			if !s.ValidJSON() {
				continue
			}
			t.Run(s.Name, func(t *testing.T) {
				got, err := decodeReply[Session](bytes.TrimSpace(s.Data))
				if err != nil {
					require.ErrorContains(t, err, "no sdk_payload object")
					return
				}
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
	require.Equal(t, s, s2)

	o := Order{Status: "NEW", StatusID: 10, ID: "ordeh_2", OrderID: "o2",
		OrderLinks: OrderLinks{CollectionLinkURLs{QR: "https://q", Intent: "upi://pay"}}, ClientAuth: ClientAuth{ClientAuthToken: "tkn"}}
	out, err = json.Marshal(o)
	require.NoError(t, err)
	require.JSONEq(t, `{"status":"NEW","status_id":10,"id":"ordeh_2","order_id":"o2",
		"links":{"payment_collection_links":{"QR":"https://q","INTENT":"upi://pay"}},"juspay":{"client_auth_token":"tkn"}}`, string(out))
	var o2 Order
	require.NoError(t, json.Unmarshal(out, &o2))
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
	require.Equal(t, st, st2)

	var r Refund
	require.NoError(t, json.Unmarshal([]byte(`{"id":"r","amount":"5","sent_to_gateway":"true","created":"FILTERED"}`), &r))
	require.Equal(t, Refund{ID: "r", Amount: "5.00", SentToGateway: true}, r)
	// A value that is not an object (the service's "FILTERED" for a
	// redacted element) changes nothing, so that it never stops a whole
	// reply from decoding; the request path refuses a reply of the wrong
	// shape before it decodes it (TestGetOrderRefusesOtherShapes).
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
	require.Equal(t, `{"rrn":"1"}`, string(st.PaymentGatewayResponse.Full))
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
}
