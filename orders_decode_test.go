package checkout

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// decimalEqual compares an Amount with a JSON number read independently.
func decimalEqual(t *testing.T, want json.Number, got Amount) {
	t.Helper()
	if want == "" {
		require.Empty(t, got)
		return
	}
	w, ok := new(big.Rat).SetString(string(want))
	require.True(t, ok)
	g, ok := new(big.Rat).SetString(string(got))
	require.True(t, ok, "amount %q", got)
	require.Zero(t, w.Cmp(g), "want %s, got %s", want, got)
}

// jsonNumber reads a generic value as a number: a JSON number, or a string
// holding one.
func jsonNumber(v any) json.Number {
	switch x := v.(type) {
	case json.Number:
		return x
	case string:
		if _, ok := new(big.Rat).SetString(x); ok {
			return json.Number(x)
		}
	}
	return ""
}

func genericString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	}
	return ""
}

// Every valid published order and refund reply decodes, and the typed
// fields agree with a generic decoding of the same bytes.
func TestOrderStatusDecodeConformance(t *testing.T) {
	samples := append(conformance.Files(t, "orders", "*.json"), conformance.Files(t, "refunds", "*.json")...)
	valid := 0
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			if !s.ValidJSON() {
				_, err := decodeReply[OrderStatus](s.Data)
				require.Error(t, err)
				return
			}
			valid++
			dec := json.NewDecoder(strings.NewReader(string(s.Data)))
			dec.UseNumber()
			var m map[string]any
			require.NoError(t, dec.Decode(&m))
			if _, envelope := m["JWT"]; envelope { // the v4 reply is an encrypted envelope
				require.True(t, isSealed(s.Data), "the request path refuses it with ErrEnvelope")
				_, err := decodeReply[OrderStatus](s.Data)
				require.ErrorContains(t, err, "none of order_id, id, status")
				return
			}
			st, err := decodeReply[OrderStatus](s.Data)
			require.NoError(t, err)
			o, err := decodeReply[Order](s.Data)
			require.NoError(t, err)
			require.NotEmpty(t, st.OrderID, "every order and refund reply names its order")
			require.NotEmpty(t, st.Status)
			if _, ok := m["amount"]; ok {
				require.NotEmpty(t, st.Amount)
			}
			require.Equal(t, genericString(m["order_id"]), st.OrderID)
			require.Equal(t, genericString(m["status"]), string(st.Status))
			require.Equal(t, genericString(m["id"]), st.ID)
			decimalEqual(t, jsonNumber(m["amount"]), st.Amount)
			decimalEqual(t, jsonNumber(m["amount_refunded"]), st.AmountRefunded)
			if n := jsonNumber(m["status_id"]); n != "" {
				id, err := n.Int64()
				require.NoError(t, err)
				require.EqualValues(t, id, st.StatusID)
				require.EqualValues(t, id, o.StatusID)
			}
			require.Equal(t, genericString(m["txn_id"]), st.TxnID)
			require.Equal(t, genericString(m["payment_method_type"]), st.PaymentMethodType)
			require.EqualValues(t, m["refunded"] == true, st.Refunded)
			refunds, _ := m["refunds"].([]any)
			require.Len(t, st.Refunds, len(refunds))
			for i, r := range refunds {
				rm := r.(map[string]any)
				require.Equal(t, genericString(rm["unique_request_id"]), st.Refunds[i].UniqueRequestID)
				require.Equal(t, genericString(rm["status"]), string(st.Refunds[i].Status))
				decimalEqual(t, jsonNumber(rm["amount"]), st.Refunds[i].Amount)
			}
			if dc := genericString(m["date_created"]); dc != "" {
				want, err := time.Parse(time.RFC3339Nano, dc)
				require.NoError(t, err)
				require.True(t, want.Equal(st.DateCreated.Time))
			}
			require.Equal(t, genericString(m["order_id"]), o.OrderID)
			require.Equal(t, genericString(m["status"]), o.Status)
			if links, ok := m["payment_links"].(map[string]any); ok {
				require.Equal(t, genericString(links["web"]), st.PaymentLinks.Web)
				require.Equal(t, genericString(links["web"]), o.PaymentLinks.Web)
			}
			require.Equal(t, string(s.Data), string(st.Raw))
		})
	}
	require.Greater(t, valid, 5)
}

// Redacted and mistyped fields are tolerated: "FILTERED" where an object is
// expected, numbers as strings, null everywhere.
func TestOrderStatusLenient(t *testing.T) {
	// The quirks the service's replies show: amounts as numbers or text,
	// "FILTERED" for a redacted block, amount or time, null anywhere, times
	// in several forms. A value of a JSON type the service never sends for
	// a field (a number for an id, text for a boolean) leaves that field
	// zero; Raw keeps everything.
	body := `{"order_id":"12345","id":null,"status":"CHARGED","status_id":21,"amount":9000,"currency":"INR",
		"refunded":"true","amount_refunded":"FILTERED","refunds":["FILTERED",{"unique_request_id":"r","amount":"1.5"},null],
		"payment_links":"FILTERED","card":"FILTERED","upi":null,"gateway_id":"23","date_created":"yesterday",
		"last_updated":"2016-08-02T08:07:52+0000","mandate":{"revokable_by_customer":"true","max_amount":"5000"},
		"metadata":{"payment_page_client_id":"shop","payment_links":{"web":"x"}},"unknown":{"deep":[1,2]}}`
	st, err := decodeReply[OrderStatus]([]byte(body))
	require.NoError(t, err)
	require.Equal(t, "12345", st.OrderID)
	require.Empty(t, st.ID)
	require.EqualValues(t, 21, st.StatusID)
	require.Equal(t, Amount("9000.00"), st.Amount)
	require.True(t, bool(st.Refunded), "a boolean sent as text reads")
	require.Empty(t, st.AmountRefunded)
	require.Len(t, st.Refunds, 3, "a redacted or null element is a zero refund")
	require.Equal(t, Refund{}, st.Refunds[0])
	require.Equal(t, Amount("1.50"), st.Refunds[1].Amount)
	require.Equal(t, Refund{}, st.Refunds[2])
	require.Equal(t, PaymentLinks{}, st.PaymentLinks)
	require.Nil(t, st.Card, "a redacted card is no card")
	require.Nil(t, st.UPI)
	require.EqualValues(t, 23, st.GatewayID, "a number sent as text reads")
	require.True(t, st.DateCreated.IsZero())
	require.Equal(t, time.Date(2016, 8, 2, 8, 7, 52, 0, time.UTC), st.LastUpdated.UTC())
	require.True(t, bool(st.Mandate.RevokableByCustomer), "the mandate's booleans come as text too")
	require.Equal(t, Amount("5000.00"), st.Mandate.MaxAmount)
	require.Equal(t, TextMap{"payment_page_client_id": "shop", "payment_links": `{"web":"x"}`}, st.Metadata,
		"an object value as its JSON text")
	require.Equal(t, body, string(st.Raw))

	_, err = decodeReply[OrderStatus]([]byte(`{"order_id":`))
	require.Error(t, err)
}

// No reply, however malformed, makes the decoders panic; a decoded session's
// payload is always a verbatim slice of the body and a decoded status keeps
// the body whole.
func FuzzDecodeReplies(f *testing.F) {
	f.Add([]byte(`{"status":"NEW","sdk_payload":{"a":"\u00e9"},"payment_links":"FILTERED"}`))
	f.Add([]byte(`{"order_id":1,"amount":"9000","refunds":[null,"x",{"amount":1e2}],"status_id":"21"}`))
	f.Add([]byte(`{"links":{"payment_collection_links":{"QR":5,"INTENT":null}},"juspay":"FILTERED"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"txn_detail":{"txn_amount_breakup":"[{\"value\":\"1\"}]"},"mandate":{"revokable_by_customer":"true"},"JWT":1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if s, err := decodeReply[Session](body); err == nil {
			if !bytes.Contains(body, s.SDKPayload) || len(s.SDKPayload) == 0 {
				t.Fatalf("payload %q is not a slice of the body", s.SDKPayload)
			}
		}
		if st, err := decodeReply[OrderStatus](body); err == nil && !bytes.Equal(st.Raw, body) {
			t.Fatal("Raw differs from the body")
		}
		_, _ = decodeReply[Order](body)
		if r, err := decodeReply[Refund](body); err == nil && !bytes.Equal(r.Raw, body) {
			t.Fatal("Raw differs from the body")
		}
		var x Transaction
		_ = json.Unmarshal(body, &x)
		var m MandateDetail
		_ = json.Unmarshal(body, &m)
	})
}

// A reply whose nested parts are mistyped still decodes leniently: before
// the order's own fields were reached through a pointer, and the lenient
// second decode failed on it.
func TestOrderDecodeLenientNested(t *testing.T) {
	o, err := decodeReply[Order]([]byte(`{"order_id":"o","status_id":10,"juspay":"FILTERED",` +
		`"links":{"payment_collection_links":{"QR":"FILTERED","INTENT":"upi://pay"}}}`))
	require.NoError(t, err)
	require.Equal(t, "o", o.OrderID)
	require.EqualValues(t, 10, o.StatusID)
	require.Empty(t, o.ClientAuthToken)
	require.Equal(t, CollectionLinkURLs{QR: "FILTERED", Intent: "upi://pay"}, o.CollectionLinks)
}
