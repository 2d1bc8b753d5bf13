package checkout

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
)

// A successful reply that is not an order status is an error naming what
// is wrong, never an empty value: the published /v4 reply in Basic mode,
// other JSON values, objects without order_id, id or status.
func TestGetOrderRefusesOtherShapes(t *testing.T) {
	jwt := conformance.Files(t, "orders", "order_status_v4_jwt_response.json")[0]
	for _, tt := range []struct {
		name, body, msg string
	}{
		{"empty object", `{}`, "the reply is not an order status: it has none of order_id, id, status"},
		{"another order", `{"order_id":"o2","status":"CHARGED","amount":"1.00"}`, `the reply is about another order than "o1"`},
		{"other object", `{"amount":1,"currency":"INR"}`, "none of order_id, id, status"},
		{"nulls", `{"order_id":null,"id":null,"status":null}`, "none of order_id, id, status"},
		{"array", `[{"order_id":"o"}]`, "the reply is a JSON array, not a JSON object"},
		{"string", `"CHARGED"`, "the reply is a JSON string, not a JSON object"},
		{"null", `null`, "the reply is null, not a JSON object"},
		{"empty", ``, "the reply is empty, not a JSON object"},
		{"truncated", `{"order_id":"o"`, "decode response"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := replyingClient(t, tt.body)
			st, err := c.GetOrder(context.Background(), "o1")
			require.Nil(t, st)
			require.ErrorContains(t, err, tt.msg)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: get order: decode response: "), err.Error())
			var ae *APIError
			require.False(t, errors.As(err, &ae), "a 2xx reply is no API error")
			require.EqualValues(t, 1, srv.count.Load())
		})
	}
	for _, body := range []string{`{"order_id":"o1"}`, `{"id":"ordeh_1"}`, `{"status":"NEW"}`} {
		srv := newRecorder(t, reply{status: 200, body: body})
		_, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
		require.NoError(t, err, body)
	}
	// An encrypted envelope is refused by the request path before decoding,
	// with the error that says which option reads it.
	for name, body := range map[string]string{
		"published v4 reply": string(jwt.Data),
		"JWE JSON envelope":  `{"header":"h","encryptedKey":"k","iv":"i","encryptedPayload":"p","tag":"t"}`,
	} {
		srv := newRecorder(t, reply{status: 200, body: body})
		st, err := newTestClient(t, srv.URL).GetOrder(context.Background(), "o1")
		require.Nil(t, st, name)
		require.ErrorIs(t, err, ErrEnvelope, name)
		require.ErrorContains(t, err, "checkout: get order: reply: the reply is encrypted", name)
	}
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
