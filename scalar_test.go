package checkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

// Reply tokens (client_auth_token, mandate_token) never print, under any
// fmt verb or slog handler, in the typed field or in Raw; json.Marshal,
// Raw's bytes and string(token) keep them for the app.
func TestReplyTokensRedacted(t *testing.T) {
	const tok, mtok = "tkn_SECRET_client_1", "mtk_SECRET_mandate_1"
	orderBody := `{"order_id":"o1","status":"NEW","juspay":{"client_auth_token":"` + tok + `"}}`
	o, err := decodeReply[Order]([]byte(orderBody))
	require.NoError(t, err)
	cu, err := decodeReply[Customer]([]byte(`{"id":"cst_1","juspay":{"client_auth_token":"` + tok + `"}}`))
	require.NoError(t, err)
	st, err := decodeReply[OrderStatus]([]byte(`{"order_id":"o1","status":"CHARGED","mandate":{"mandate_token":"` + mtok +
		`","mandate_debit_token":"` + mtok + `"},"txn_list":[{"mandate":{"mandateToken":"` + mtok + `"}}]}`))
	require.NoError(t, err)
	s, err := decodeReply[Session]([]byte(`{"order_id":"o1","sdk_payload":{"payload":{"clientAuthToken":"` + tok + `"}}}`))
	require.NoError(t, err)

	for _, v := range []any{o, *o, cu, *cu, st, *st, st.Mandate, st.Mandate.MandateToken, o.ClientAuth, o.Raw, st.Raw, s.Raw, s, *s} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			out := fmt.Sprintf(verb, v)
			require.NotContains(t, out, tok, verb)
			require.NotContains(t, out, mtok, verb)
		}
	}
	require.Contains(t, fmt.Sprintf("%+v", *o), "ClientAuthToken:[REDACTED]")
	for _, v := range []any{o, *cu, st, st.Mandate, *s, o.ClientAuthToken} {
		var buf bytes.Buffer
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "v", v)
		slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "v", v)
		require.NotContains(t, buf.String(), "SECRET", buf.String())
		require.Contains(t, buf.String(), "[REDACTED]")
	}

	require.Equal(t, tok, string(o.ClientAuthToken))
	require.Equal(t, orderBody, string(o.Raw), "Raw keeps the bytes")
	require.Equal(t, orderBody, o.Raw.String())
	out, err := json.Marshal(o)
	require.NoError(t, err)
	require.Contains(t, string(out), `"juspay":{"client_auth_token":"`+tok+`"}`, "json.Marshal keeps it")
	out, err = json.Marshal(st.Mandate)
	require.NoError(t, err)
	require.Contains(t, string(out), mtok)
}

// Raw without a token prints exactly as the service sent it; text that is
// not JSON prints as a marker, never as itself.
func TestRawJSONFormat(t *testing.T) {
	const body = `{"b":1, "a":"x"}`
	require.Equal(t, body, fmt.Sprintf("%v", RawJSON(body)))
	require.Equal(t, `"[REDACTED: not JSON]"`, fmt.Sprintf("%v", RawJSON(`{"token":`)))
	require.Equal(t, "", fmt.Sprintf("%v", RawJSON(nil)))
	require.Equal(t, `{"a":{"client_auth_token":"[REDACTED]","n":1.50}}`,
		fmt.Sprintf("%s", RawJSON(`{"a":{"client_auth_token":"t","n":1.50}}`)), "numbers kept as sent")
}

// A value of neither form leaves the zero value and no error: never a
// wrong zero for a text number, never a lost reply.
func TestStatusScalarsNeitherForm(t *testing.T) {
	var v struct {
		N, M, K Int
		B, C    Bool
		T       TextMap
	}
	require.NoError(t, json.Unmarshal([]byte(`{"N":"FILTERED","M":1.5,"K":" 42 ","B":"maybe","C":"TRUE","T":[1]}`), &v))
	require.Zero(t, v.N)
	require.Zero(t, v.M)
	require.EqualValues(t, 42, v.K)
	require.False(t, bool(v.B))
	require.True(t, bool(v.C))
	require.Nil(t, v.T)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	require.JSONEq(t, `{"N":0,"M":0,"K":42,"B":false,"C":true,"T":null}`, string(out))
}

// A token key written with JSON escapes is still a token key.
func TestEscapedTokenKeyRedacted(t *testing.T) {
	s, err := decodeReply[Session]([]byte(`{"order_id":"o1","sdk_payload":{"payload":{"clientAuthTok\u0065n":"tkn_ESCAPED_1"}}}`))
	require.NoError(t, err)
	for _, verb := range []string{"%v", "%+v", "%s"} {
		require.NotContains(t, fmt.Sprintf(verb, *s), "tkn_ESCAPED_1", verb)
		require.NotContains(t, fmt.Sprintf(verb, s.Raw), "tkn_ESCAPED_1", verb)
	}
}
