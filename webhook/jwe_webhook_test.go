package webhook

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
)

func TestHandlerEncryptedWebhooks(t *testing.T) {
	cfg, v := jweVerifier(t, JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey})
	var got []*Event
	h := v.Handler(func(_ context.Context, ev *Event) error { got = append(got, ev); return nil })

	envelope := func(tok string) []byte {
		b, err := json.Marshal(map[string]string{"JWT": tok})
		require.NoError(t, err)
		return b
	}
	opts := SealOptions{Signer: serviceKey()}
	// Each re-send is encrypted afresh; it is still one event.
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, envelope(seal(t, utf8Event, opts)))).Code)
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, envelope(seal(t, utf8Event, opts)))).Code)
	require.Len(t, got, 1)
	ev := got[0]
	require.True(t, ev.Encrypted)
	require.Equal(t, "evt_jwe_1", ev.ID)
	require.Equal(t, "ord_ஆ_1", ev.OrderID())
	require.Equal(t, utf8Event, string(ev.Raw))

	// The JSON-serialised JWE envelope of the service's API responses.
	parts := strings.Split(seal(t, strings.Replace(utf8Event, "evt_jwe_1", "evt_jwe_2", 1), opts), ".")
	body, err := json.Marshal(map[string]string{"header": parts[0], "encryptedKey": parts[1], "iv": parts[2], "encryptedPayload": parts[3], "tag": parts[4]})
	require.NoError(t, err)
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, body)).Code)
	require.Len(t, got, 2)
	require.Equal(t, "evt_jwe_2", got[1].ID)

	// Plain JSON keeps working next to JWT while the receiver switches
	// over (backward compatible, §6.1.7), with AcceptPlain.
	cfg.AcceptPlain = true
	v, err = NewVerifier(cfg)
	require.NoError(t, err)
	h = v.Handler(func(_ context.Context, ev *Event) error { got = append(got, ev); return nil })
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
	require.Len(t, got, 3)
	require.False(t, got[2].Encrypted)
	require.Equal(t, 200, serve(h, NewTestRequest(cfg, envelope(seal(t, strings.Replace(utf8Event, "evt_jwe_1", "evt_jwe_3", 1), opts)))).Code)
	require.Len(t, got, 4)
	require.True(t, got[3].Encrypted)

	// Failures are 500 (nothing lost) or 400, never 200.
	for name, tc := range map[string]struct {
		body []byte
		code int
	}{
		"wrong recipient":            {envelope(seal(t, utf8Event, SealOptions{Recipient: &strangerKey().PublicKey, Signer: serviceKey()})), 500},
		"unsigned":                   {envelope(seal(t, utf8Event, SealOptions{})), 500},
		"payload not an event":       {envelope(seal(t, `{"order_id":"x"}`, opts)), 400},
		"payload not json":           {envelope(seal(t, `hello`, opts)), 400},
		"nested envelope":            {envelope(seal(t, `{"JWT":"a.b.c.d.e"}`, opts)), 400},
		"incomplete json envelope":   {[]byte(`{"header":"a","iv":"c","encryptedPayload":"d","tag":"e"}`), 400},
		"json envelope with dot":     {[]byte(`{"header":"a.b","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), 400},
		"json envelope placeholders": {[]byte(`{"header":"a","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), 500},
	} {
		require.Equal(t, tc.code, serve(h, NewTestRequest(cfg, tc.body)).Code, name)
	}
	require.Len(t, got, 4)
}

// With a Decrypter (and a VerificationKey) a plain JSON body is a
// downgrade: whoever holds the Basic credentials would skip the
// decryption and the signature. It is refused with a 500 (so a genuine
// plain delivery during a switch-over is re-sent, not lost) unless
// AcceptPlain is set; the merchant's function never sees it.
func TestPlainBodyRefusedWithDecrypter(t *testing.T) {
	for _, jc := range []JWEConfig{
		{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey},
		{PrivateKey: merchantKey()},
	} {
		cfg, v := jweVerifier(t, jc)
		ev, err := v.Verify(NewTestRequest(cfg, []byte(orderBody)))
		require.ErrorIs(t, err, ErrNotEncrypted)
		require.NotErrorIs(t, err, ErrMalformedBody)
		require.Nil(t, ev)
		h := v.Handler(func(context.Context, *Event) error { t.Error("a plain body reached the function"); return nil })
		require.Equal(t, http.StatusInternalServerError, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
		// Not-JSON stays a 400: the refusal is about a well-formed plain event.
		require.Equal(t, http.StatusBadRequest, serve(h, NewTestRequest(cfg, []byte(`not json`))).Code)

		cfg.AcceptPlain = true
		v, err = NewVerifier(cfg)
		require.NoError(t, err)
		ev, err = v.Verify(NewTestRequest(cfg, []byte(orderBody)))
		require.NoError(t, err)
		require.False(t, ev.Encrypted)
	}

	// Without a Decrypter plain JSON is the only form, with or without
	// AcceptPlain.
	for _, accept := range []bool{false, true} {
		cfg := baseConfig()
		cfg.AcceptPlain = accept
		v, err := NewVerifier(cfg)
		require.NoError(t, err)
		_, err = v.Verify(NewTestRequest(cfg, []byte(orderBody)))
		require.NoError(t, err)
	}
}

// The published envelopes (conformance/jwt): the JWT webhook header names
// exactly the algorithms Seal uses and Decrypt accepts, and every published
// envelope is refused cleanly (they are truncated or hold placeholders).
func TestConformanceJWT(t *testing.T) {
	samples := conformance.Files(t, "jwt", "*.json")
	cfg, v := jweVerifier(t, JWEConfig{PrivateKey: merchantKey()})
	sawWebhook := false
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			ev, err := v.Verify(NewTestRequest(cfg, s.Data))
			require.Error(t, err)
			require.Nil(t, ev)
			require.True(t, StatusFor(err) == http.StatusBadRequest || StatusFor(err) == http.StatusInternalServerError, "%v", err)

			var env struct{ JWT string }
			if json.Unmarshal(s.Data, &env) != nil || env.JWT == "" {
				return
			}
			sawWebhook = true
			require.ErrorIs(t, err, checkout.ErrDecrypt)
			// The visible prefix of the header decodes to the algorithms we use.
			prefix := env.JWT[:strings.IndexAny(env.JWT, ". ")]
			prefix = prefix[:len(prefix)/4*4]
			hdr, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(prefix, "="))
			require.NoError(t, err)
			require.Contains(t, string(hdr), `{"alg":"RSA-OAEP-256","enc":"A256GCM"`)

			ours := seal(t, utf8Event, SealOptions{})
			obj, err := jose.ParseEncryptedCompact(ours, []jose.KeyAlgorithm{jose.RSA_OAEP_256}, []jose.ContentEncryption{jose.A256GCM})
			require.NoError(t, err)
			require.Equal(t, "RSA-OAEP-256", obj.Header.Algorithm)
		})
	}
	require.True(t, sawWebhook, "the JWT webhook envelope sample was not found")
}

func TestHandlerJSONSignedWebhook(t *testing.T) {
	cfg, v := jweVerifier(t, JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey})
	tok := seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignatureAsJSON: true})
	ev, err := v.Verify(NewTestRequest(cfg, []byte(`{"JWT":"`+tok+`"}`)))
	require.NoError(t, err)
	require.True(t, ev.Encrypted)
	require.Equal(t, "ord_ஆ_1", ev.OrderID())
	require.Equal(t, utf8Event, string(ev.Raw))

	// Unsigned content is refused with a 500 (the service re-sends).
	h := v.Handler(func(context.Context, *Event) error { t.Fatal("called"); return nil })
	require.Equal(t, 500, serve(h, NewTestRequest(cfg, []byte(`{"JWT":"`+seal(t, utf8Event, SealOptions{})+`"}`))).Code)
}
