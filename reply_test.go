package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// TestTimestampForms reads every form a service time comes in, and leaves
// the zero time for what is not a time, without an error or a panic.
func TestTimestampForms(t *testing.T) {
	want := time.Date(2023, 12, 30, 21, 46, 57, 0, time.UTC)
	for _, tc := range []struct {
		json string
		want time.Time
	}{
		{`"2023-12-30T21:46:57Z"`, want},
		{`"2023-12-30T21:46:57.000Z"`, want},
		{`"2023-12-30T21:46:57+0000"`, want},
		{`"2023-12-30T21:46:57"`, want},
		{` "2023-12-30T21:46:57Z" `, want},
		{`"2023\u002d12-30T21:46:57Z"`, want}, // an escape goes through the decoder
		{`1703972817`, want},
		{`"1703972817"`, want},
		{`0`, time.Time{}},
		{`-5`, time.Time{}},
		{`"FILTERED"`, time.Time{}},
		{`""`, time.Time{}},
		{`{"a":1}`, time.Time{}},
		{`true`, time.Time{}},
	} {
		ts := Timestamp{time.Unix(1, 0)}
		require.NoError(t, ts.UnmarshalJSON([]byte(tc.json)), tc.json)
		require.True(t, tc.want.Equal(ts.Time), "%s: got %v", tc.json, ts.Time)
	}

	ts := Timestamp{want}
	require.NoError(t, ts.UnmarshalJSON([]byte(`null`)))
	require.True(t, want.Equal(ts.Time), "null leaves the time as it was")

	for _, bad := range []string{`"`, `"2023`, `"a\`} {
		require.Error(t, new(Timestamp).UnmarshalJSON([]byte(bad)), "%s is not JSON", bad)
	}
}

// A value that fits no field is left out and kept in Raw, never an error
// that loses the whole reply: a breakup whose text is garbled, a token
// block the service redacts.
func TestGarbledOrRedactedBlocksLeftOut(t *testing.T) {
	body := `{"order_id":"o","status":"CHARGED","amount":"10.00",` +
		`"txn_detail":{"txn_id":"t1","txn_amount_breakup":"[{\"name\":\"BASE\",\"amount\":10"},` +
		`"card":{"card_brand":"VISA","using_token":true,"token":"FILTERED"}}`
	st, err := decodeReply[OrderStatus]([]byte(body))
	require.NoError(t, err)
	require.Equal(t, "t1", st.TxnDetail.TxnID)
	require.Empty(t, st.TxnDetail.AmountBreakup)
	require.Contains(t, string(st.Raw), `txn_amount_breakup`)
	require.Equal(t, "VISA", st.Card.Brand)
	require.Zero(t, st.Card.Token, "a redacted token block is zero, as every redacted block is")
	require.NoError(t, st.CheckPaid("10.00"))

	var card CardDetail
	require.NoError(t, json.Unmarshal([]byte(`{"token":{"provider":"VISA"}}`), &card))
	require.Equal(t, "VISA", card.Token.Provider)
}

// Dates the service writes with spaces ("2023-05-19T10: 54: 23Z") or that
// cannot be ("1113211T15:41:02Z", February 30th) are zero times, never an
// error: the rest of the reply reads, and Raw keeps them.
func TestTimestampOddDates(t *testing.T) {
	st := fixture(t, "status_odd_dates.json")
	require.True(t, st.DateCreated.IsZero(), "a date written with spaces")
	require.True(t, st.LastUpdated.IsZero(), "an impossible date")
	require.True(t, st.TxnDetail.Created.IsZero(), "February 30th")
	require.Equal(t, time.Date(2023, 5, 19, 11, 9, 23, 0, time.UTC), st.OrderExpiry.Time)
	require.Equal(t, time.Date(2023, 5, 19, 10, 54, 40, 0, time.UTC), st.TxnDetail.LastUpdated.Time)
	require.Equal(t, "shop-ord_dates_1-1", st.TxnDetail.TxnID)
	for _, raw := range []string{`"2023-05-19T10: 54: 23Z"`, `"1113211T15:41:02Z"`, `"2023-02-30T10:00:00Z"`} {
		require.Contains(t, string(st.Raw), raw)
	}
}

// Unix seconds read as a time only up to the year 9999, the last a
// Timestamp can be written back: milliseconds are no time of the service's.
func TestTimestampEncodableRange(t *testing.T) {
	var ts Timestamp
	require.NoError(t, ts.UnmarshalJSON([]byte(`253402300799`)))
	require.EqualValues(t, 9999, ts.Year())
	_, err := json.Marshal(ts)
	require.NoError(t, err)
	require.NoError(t, ts.UnmarshalJSON([]byte(`"1000000000000"`)))
	require.True(t, ts.IsZero(), "a time in milliseconds: %v", ts.Time)
}

// untypedKeys are the keys of the published bodies no field types: their
// shape is never shown unredacted or differs between gateways. Raw keeps
// them.
var untypedKeys = map[string]bool{
	"OrderStatus.rewards_breakup": true, // null or FILTERED
	"OrderStatus.additional_info": true, // {}
	"Refund.previous_attempts":    true, // FILTERED
}

var (
	timestampType     = reflect.TypeFor[Timestamp]()
	amountBreakupType = reflect.TypeFor[AmountBreakup]()
	amountType        = reflect.TypeFor[Amount]()
)

// requireTyped walks a generic decoding of a published body beside its
// typed value: every key has a field (or is listed in untypedKeys), every
// object and array of the body is typed as one, and every value that is
// set and not redacted is set in its field too, equal where it is text.
func requireTyped(t *testing.T, where string, v reflect.Value, raw any) {
	t.Helper()
	if raw == nil {
		return
	}
	if s, ok := raw.(string); ok && (s == "" || s == "FILTERED") {
		return
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			t.Errorf("%s: %v was not decoded", where, raw)
			return
		}
		v = v.Elem()
	}
	if v.Type() == reflect.TypeFor[json.RawMessage]() || v.Type() == reflect.TypeFor[RawJSON]() {
		want, err := json.Marshal(raw)
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(v.Bytes()), where)
		return
	}
	switch x := raw.(type) {
	case map[string]any:
		if v.Kind() == reflect.Map {
			for k, val := range x {
				if s, ok := val.(string); ok {
					require.Equal(t, s, v.MapIndex(reflect.ValueOf(k)).String(), "%s.%s", where, k)
				}
			}
			return
		}
		require.Equal(t, reflect.Struct, v.Kind(), where)
		fields := jsonFields(v.Type())
		for k, val := range x {
			index, ok := fields[k]
			if !ok {
				if !untypedKeys[v.Type().Name()+"."+k] && !isUDFOrAlias(v.Type(), k) {
					t.Errorf("%s.%s: no field of %s types it", where, k, v.Type().Name())
				}
				continue
			}
			requireTyped(t, where+"."+k, v.FieldByIndex(index), val)
		}
	case []any:
		require.Equal(t, reflect.Slice, v.Kind(), where)
		require.Equal(t, len(x), v.Len(), where)
		for i := range x {
			requireTyped(t, where+"["+strconv.Itoa(i)+"]", v.Index(i), x[i])
		}
	case string:
		switch {
		case v.Type() == timestampType:
			if want, err := time.Parse(time.RFC3339, x); err == nil {
				require.True(t, want.Equal(v.Interface().(Timestamp).Time), "%s: %s", where, x)
			}
		case v.Type() == amountBreakupType:
			var lines []any
			require.NoError(t, json.Unmarshal([]byte(x), &lines), where)
			requireTyped(t, where, v, lines)
		case v.Type() == amountType:
			decimalEqual(t, json.Number(x), v.Interface().(Amount))
		case v.Kind() == reflect.String:
			require.Equal(t, x, v.String(), where)
		default:
			require.False(t, v.IsZero(), "%s: %q", where, x)
		}
	case json.Number:
		if v.Type() == amountType {
			decimalEqual(t, x, v.Interface().(Amount))
		} else if x != "0" {
			require.False(t, v.IsZero(), "%s: %s", where, x)
		}
	case bool:
		require.Equal(t, x, v.Bool(), where)
	}
}

// isUDFOrAlias reports the keys read by hand beside the tags: the older
// arn of a refund and value of a breakup line.
func isUDFOrAlias(t reflect.Type, key string) bool {
	return t.Name() == "Refund" && key == "arn" || t.Name() == "BreakupLine" && key == "value"
}

// genericJSON decodes a body with numbers kept as text.
func genericJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

// Every published order status, refund-order reply and order inside a
// webhook decodes into OrderStatus with every key typed (or listed as
// untyped) and every value in its field.
func TestOrderStatusSamplesFullyTyped(t *testing.T) {
	var bodies []conformance.Sample
	bodies = append(bodies, conformance.Files(t, "orders", "order_status_*.json")...)
	bodies = append(bodies, conformance.Files(t, "orders", "order_update_response.json")...)
	bodies = append(bodies, conformance.Files(t, "refunds", "refund_order_response.json")...)
	orders := 0
	for _, s := range bodies {
		if !s.ValidJSON() || isSealed(s.Data) {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			st, err := decodeReply[OrderStatus](s.Data)
			require.NoError(t, err)
			requireTyped(t, "order", reflect.ValueOf(st).Elem(), genericJSON(t, s.Data))
			orders++
		})
	}
	for _, s := range conformance.Files(t, "webhooks", "*") {
		if !s.ValidJSON() {
			continue
		}
		m := genericJSON(t, s.Data)
		content, _ := m["content"].(map[string]any)
		for kind, target := range map[string]any{"order": &OrderStatus{}, "txn": &Transaction{}, "mandate": &MandateDetail{}} {
			raw, ok := content[kind]
			if !ok {
				continue
			}
			t.Run(s.Name+"/"+kind, func(t *testing.T) {
				b, err := json.Marshal(raw)
				require.NoError(t, err)
				require.NoError(t, decodeLenient(b, target), "as the webhook package reads it")
				requireTyped(t, kind, reflect.ValueOf(target).Elem(), raw)
				if kind == "order" {
					orders++
				}
			})
		}
	}
	require.GreaterOrEqual(t, orders, 15)
}

// jsonFields returns the index of each field of struct type t under its
// json key, embedded structs' fields promoted, as encoding/json reads them.
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := out[name]; !dup || len(f.Index) == 1 {
			out[name] = f.Index
		}
	}
	return out
}

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

// The same rule holds for every reply type, named in plain words.
func TestDecodeReplyNamesTheType(t *testing.T) {
	_, err := decodeReply[Refund]([]byte(`{"amount":1}`))
	require.ErrorContains(t, err, "the reply is not a refund: it has none of id, unique_request_id, status")
	_, err = decodeReply[Order]([]byte(`{"unknown":1}`))
	require.ErrorContains(t, err, "the reply is not an order: it has none of status, status_id, id, order_id, payment_links")
	_, err = decodeReply[Session]([]byte(`{"JWT":"x"}`))
	require.ErrorContains(t, err, "no sdk_payload object")
}

// A Timestamp reads any valid JSON without an error; a time it reads is
// written back as RFC 3339 and reads again as the same instant.
func FuzzTimestamp(f *testing.F) {
	for _, s := range []string{`"2023-08-10T07:25:35Z"`, `"2016-08-02T08:07:52+0000"`, `1691662587`, `"1691662587"`,
		`"2016-08-02T08:07:52"`, `"FILTERED"`, `"9999-12-31T23:59:59-23:59"`, `253402300799`, `null`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var ts Timestamp
		if err := json.Unmarshal(data, &ts); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if ts.IsZero() {
			return
		}
		out, err := json.Marshal(ts)
		if err != nil {
			return // a year outside 0–9999 after its offset: time.Time refuses to write it
		}
		var back Timestamp
		if err := json.Unmarshal(out, &back); err != nil || !back.Equal(ts) {
			t.Fatalf("%s → %s → %v (%v)", data, out, back, err)
		}
	})
}
