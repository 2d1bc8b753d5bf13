package webhook

import (
	"encoding/base64"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// The decrypted content of a JWT webhook may be a compact JWS, a JSON JWS
// or the plain event: a signature is verified wherever there is one, and
// unsigned content is refused when a verification key is configured.
func TestJWEDecryptContentShapes(t *testing.T) {
	verifying, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey})
	require.NoError(t, err)
	plainOnly, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey()})
	require.NoError(t, err)
	signed := goJoseSign(t, jose.RS256, serviceKey(), "key_svc", utf8Event)
	shapes := map[string]string{
		"compact JWS": signed,
		"JSON JWS":    jsonJWS(t, signed),
		"plain event": utf8Event,
	}
	for name, content := range shapes {
		t.Run(name, func(t *testing.T) {
			tok := seal(t, content, SealOptions{})
			got, err := verifying.Decrypt(tok)
			if name == "plain event" {
				require.ErrorIs(t, err, checkout.ErrSignature, "unsigned content with a verification key")
				require.ErrorContains(t, err, "not signed")
				require.Nil(t, got)
			} else {
				require.NoError(t, err)
				require.Equal(t, utf8Event, string(got), "byte for byte")
			}
			got, err = plainOnly.Decrypt(tok)
			if name == "plain event" {
				require.NoError(t, err)
				require.Equal(t, utf8Event, string(got))
			} else {
				require.ErrorIs(t, err, checkout.ErrSignature, "signed content is never accepted unverified")
				require.Nil(t, got)
			}
		})
	}

	// Seal makes the JSON form too.
	tok := seal(t, utf8Event, SealOptions{Signer: serviceKey(), SignatureAsJSON: true, LegacyOAEP: true})
	got, err := verifying.Decrypt(tok)
	require.NoError(t, err)
	require.Equal(t, utf8Event, string(got))
	_, err = Seal([]byte(utf8Event), SealOptions{Recipient: &merchantKey().PublicKey, SignatureAsJSON: true})
	require.ErrorContains(t, err, "needs a Signer")
}

func TestJWEDecryptJSONSignatureFailures(t *testing.T) {
	verifying, err := NewJWEDecrypter(JWEConfig{PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey, VerificationKeyID: "key_svc"})
	require.NoError(t, err)
	good := goJoseSign(t, jose.RS256, serviceKey(), "key_svc", utf8Event)
	p := strings.Split(good, ".")
	b64 := base64.RawURLEncoding.EncodeToString
	tests := map[string]string{
		"signed by another key": jsonJWS(t, goJoseSign(t, jose.RS256, strangerKey(), "key_svc", utf8Event)),
		"tampered signature":    jsonJWS(t, p[0]+"."+p[1]+"."+wiretest.Flip(t, p[2])),
		"tampered payload":      jsonJWS(t, p[0]+"."+b64([]byte(strings.Replace(utf8Event, "CHARGED", "REFUNDED", 1)))+"."+p[2]),
		"header without kid":    jsonJWS(t, b64([]byte(`{"alg":"RS256"}`))+"."+p[1]+"."+p[2]),
		"kid of another key":    jsonJWS(t, goJoseSign(t, jose.RS256, serviceKey(), "key_other", utf8Event)),
		"no kid":                jsonJWS(t, goJoseSign(t, jose.RS256, serviceKey(), "", utf8Event)),
		"alg none":              `{"header":"` + b64([]byte(`{"alg":"none","kid":"key_svc"}`)) + `","payload":"` + p[1] + `","signature":""}`,
		"HS256":                 jsonJWS(t, goJoseSign(t, jose.HS256, []byte("0123456789abcdef0123456789abcdef"), "key_svc", utf8Event)),
		"parts not strings":     `{"header":1,"payload":"` + p[1] + `","signature":"` + p[2] + `"}`,
		"parts not base64url":   `{"header":"a=","payload":"` + p[1] + `","signature":"` + p[2] + `"}`,
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			plain, err := verifying.Decrypt(seal(t, content, SealOptions{}))
			require.ErrorIs(t, err, checkout.ErrSignature)
			require.Nil(t, plain)
			require.NotContains(t, err.Error(), "ord_ஆ_1")
			require.NotContains(t, err.Error(), "REFUNDED")
		})
	}
	// Wrong recipient and tampered JWE around a JSON JWS: checkout.ErrDecrypt.
	tok := seal(t, jsonJWS(t, good), SealOptions{Recipient: &strangerKey().PublicKey})
	_, err = verifying.Decrypt(tok)
	require.ErrorIs(t, err, checkout.ErrDecrypt)
	parts := strings.Split(seal(t, jsonJWS(t, good), SealOptions{}), ".")
	for i := range parts {
		q := append([]string(nil), parts...)
		q[i] = wiretest.Flip(t, q[i])
		_, err = verifying.Decrypt(strings.Join(q, "."))
		require.ErrorIs(t, err, checkout.ErrDecrypt, "part %d", i)
	}
}

// The service's published JSON JWS sample (placeholders) is recognised as
// signed content and refused, with or without a verification key.
func TestJWEConformanceSignedEnvelope(t *testing.T) {
	s := conformance.Files(t, "jwt", "jwt_step3_jws_json_envelope.json")[0]
	tok := seal(t, string(s.Data), SealOptions{})
	for _, cfg := range []JWEConfig{{PrivateKey: merchantKey()}, {PrivateKey: merchantKey(), VerificationKey: &serviceKey().PublicKey}} {
		d, err := NewJWEDecrypter(cfg)
		require.NoError(t, err)
		plain, err := d.Decrypt(tok)
		require.ErrorIs(t, err, checkout.ErrSignature)
		require.Nil(t, plain)
	}
}
