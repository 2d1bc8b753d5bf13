package checkout

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/jose"
	"github.com/payorch/checkout-go/internal/wiretest"
)

func TestJWESealIsReadByIndependentCode(t *testing.T) {
	j := testJWE(t)
	body := []byte(`{"order_id":"` + secretMarker + `","amount":"1.0","description":"😀 வணக்கம் \u00e9"}`)
	sealed, err := j.seal(context.Background(), "create session", body)
	require.NoError(t, err)
	require.NotContains(t, string(sealed), secretMarker)

	payload, jweHdr, jwsHdr := svcOpen(t, sealed)
	require.Equal(t, string(body), string(payload), "byte for byte")
	require.Equal(t, `{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"`+testKID+`"}`, jweHdr)
	require.Equal(t, `{"alg":"RS256","kid":"`+testKID+`"}`, jwsHdr)
	// The member order of the service's SDKs.
	require.Equal(t, []string{"header", "encryptedKey", "iv", "encryptedPayload", "tag"}, jsonKeys(t, sealed))

	// The signed envelope inside has the SDKs' order too.
	var env map[string]string
	require.NoError(t, json.Unmarshal(sealed, &env))
	obj, err := gojose.ParseEncryptedCompact(env["header"]+"."+env["encryptedKey"]+"."+env["iv"]+"."+env["encryptedPayload"]+"."+env["tag"],
		[]gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})
	require.NoError(t, err)
	inner, err := obj.Decrypt(serviceRSA())
	require.NoError(t, err)
	require.Equal(t, []string{"header", "payload", "signature"}, jsonKeys(t, inner))

	// Fresh key and IV each time.
	again, err := j.seal(context.Background(), "create session", body)
	require.NoError(t, err)
	require.NotEqual(t, string(sealed), string(again))

	// The merchant cannot open its own request: it is for the service.
	_, err = j.open(context.Background(), "create session", sealed)
	require.ErrorIs(t, err, ErrDecrypt)
}

func TestJWEOpenReadsIndependentReplies(t *testing.T) {
	j := testJWE(t)
	for _, alg := range []gojose.KeyAlgorithm{gojose.RSA_OAEP_256, gojose.RSA_OAEP} {
		for _, jwt := range []bool{false, true} {
			for _, compact := range []bool{false, true} {
				name := fmt.Sprintf("%s/jwt=%v/compactJWS=%v", alg, jwt, compact)
				t.Run(name, func(t *testing.T) {
					body := svcReply{alg: alg, jwtForm: jwt, compactJWS: compact}.seal(t, jweReply)
					got, err := j.open(context.Background(), "create session", body)
					require.NoError(t, err)
					require.Equal(t, jweReply, string(got), "byte for byte")
				})
			}
		}
	}
	// Variants the service's tools produce.
	for name, o := range map[string]svcReply{
		"signature without kid":      {jwsKID: strp("")},
		"cty JWT as the Node.js SDK": {alg: gojose.RSA_OAEP, cty: true},
	} {
		got, err := j.open(context.Background(), "get order", o.seal(t, jweReply))
		require.NoError(t, err, name)
		require.Equal(t, jweReply, string(got), name)
	}
	// White space around the body and the JWT is tolerated.
	body := svcReply{jwtForm: true}.seal(t, jweReply)
	got, err := j.open(context.Background(), "refund", append(append([]byte("\n  "), body...), '\n'))
	require.NoError(t, err)
	require.Equal(t, jweReply, string(got))
}

// flipPart changes one character in the middle of part key of a
// five-part envelope ("header" … "tag"), keeping it base64url.
func flipPart(t *testing.T, body []byte, key string) []byte {
	t.Helper()
	return editEnvelope(t, body, func(env map[string]string) { env[key] = wiretest.Flip(t, env[key]) })
}

// dropPart removes a part from a five-part envelope.
func dropPart(t *testing.T, body []byte, key string) []byte {
	t.Helper()
	return editEnvelope(t, body, func(env map[string]string) { delete(env, key) })
}

// editEnvelope returns the JSON envelope body after edit changed its parts.
func editEnvelope(t *testing.T, body []byte, edit func(env map[string]string)) []byte {
	t.Helper()
	var env map[string]string
	require.NoError(t, json.Unmarshal(body, &env))
	edit(env)
	out, err := json.Marshal(env)
	require.NoError(t, err)
	return out
}

// tamperedJWS is a JSON JWS signed by the service whose part key was
// changed after signing.
func tamperedJWS(t *testing.T, key string) []byte {
	t.Helper()
	s, err := gojose.NewSigner(gojose.SigningKey{Algorithm: gojose.RS256, Key: serviceRSA()}, (&gojose.SignerOptions{}).WithHeader("kid", testKID))
	require.NoError(t, err)
	jws, err := s.Sign([]byte(jweReply))
	require.NoError(t, err)
	c, err := jws.CompactSerialize()
	require.NoError(t, err)
	p := strings.Split(c, ".")
	m := map[string]string{"header": p[0], "payload": p[1], "signature": p[2]}
	switch key {
	case "header":
		m[key] = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256","kid":"` + testKID + `","x":1}`))
	case "payload":
		m[key] = base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(jweReply, "NEW", "CHARGED", 1)))
	case "signature":
		m[key] = wiretest.Flip(t, m[key])
	}
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

func noneJWS(t *testing.T, compact bool) []byte {
	hdr := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","kid":"` + testKID + `"}`))
	pl := base64.RawURLEncoding.EncodeToString([]byte(jweReply))
	if compact {
		return []byte(hdr + "." + pl + ".")
	}
	b, err := json.Marshal(map[string]string{"header": hdr, "payload": pl, "signature": ""})
	require.NoError(t, err)
	return b
}

func TestJWEOpenFailsClosed(t *testing.T) {
	j := testJWE(t)
	good := svcReply{}.seal(t, jweReply)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: must(x509.MarshalPKIXPublicKey(&serviceRSA().PublicKey))})
	mine, err := j.seal(context.Background(), "create session", []byte(jweReply))
	require.NoError(t, err)

	tests := []struct {
		name string
		body []byte
		want error
	}{
		{"tampered header", flipPart(t, good, "header"), ErrDecrypt},
		{"tampered encryptedKey", flipPart(t, good, "encryptedKey"), ErrDecrypt},
		{"tampered iv", flipPart(t, good, "iv"), ErrDecrypt},
		{"tampered encryptedPayload", flipPart(t, good, "encryptedPayload"), ErrDecrypt},
		{"tampered tag", flipPart(t, good, "tag"), ErrDecrypt},
		{"tampered JWS header", svcEncrypt(t, svcReply{}, tamperedJWS(t, "header")), ErrSignature},
		{"tampered JWS payload", svcEncrypt(t, svcReply{}, tamperedJWS(t, "payload")), ErrSignature},
		{"tampered JWS signature", svcEncrypt(t, svcReply{}, tamperedJWS(t, "signature")), ErrSignature},
		{"alg none, JSON JWS", svcEncrypt(t, svcReply{}, noneJWS(t, false)), ErrSignature},
		{"alg none, compact JWS", svcEncrypt(t, svcReply{}, noneJWS(t, true)), ErrSignature},
		{"HS256 keyed with the service's public key", svcReply{sigAlg: gojose.HS256, sigKey: pubPEM}.seal(t, jweReply), ErrSignature},
		{"RS384 by the service key", svcReply{sigAlg: gojose.RS384}.seal(t, jweReply), ErrSignature},
		{"PS256 by the service key", svcReply{sigAlg: gojose.PS256}.seal(t, jweReply), ErrSignature},
		{"signed by another key", svcReply{sigKey: strangerRSA()}.seal(t, jweReply), ErrSignature},
		{"signed by another key that embeds its jwk", svcReply{sigKey: strangerRSA(), embedJWK: true}.seal(t, jweReply), ErrSignature},
		{"signed by the merchant key", svcReply{sigKey: merchantRSA()}.seal(t, jweReply), ErrSignature},
		{"signature kid of another key", svcReply{jwsKID: strp("key_other")}.seal(t, jweReply), ErrSignature},
		{"unsigned plaintext inside", svcReply{inner: []byte(jweReply)}.seal(t, jweReply), ErrSignature},
		{"JSON JWS with a number", svcEncrypt(t, svcReply{}, []byte(`{"header":1,"payload":"e30","signature":"c2ln"}`)), ErrSignature},
		{"encrypted to another key", svcReply{recipient: &strangerRSA().PublicKey}.seal(t, jweReply), ErrDecrypt},
		{"our own request echoed back", mine, ErrDecrypt},
		{"JWE kid of another key", svcReply{jweKID: strp("key_other")}.seal(t, jweReply), ErrDecrypt},
		{"JWE without kid", svcReply{jweKID: strp("")}.seal(t, jweReply), ErrDecrypt},
		{"RSA1_5", svcReply{alg: gojose.RSA1_5}.seal(t, jweReply), ErrDecrypt},
		{"A128GCM", svcReply{enc: gojose.A128GCM}.seal(t, jweReply), ErrDecrypt},
		{"dir", svcReply{alg: gojose.DIRECT, recipient: make([]byte, 32)}.seal(t, jweReply), ErrDecrypt},
		{"JWT form tampered", []byte(`{"JWT":"` + strings.Replace(string(svcCompact(t)), "A", "B", 1) + `"}`), ErrDecrypt},
		{"part with a dot", []byte(`{"header":"a.b","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), ErrDecrypt},
		{"part with padding", []byte(`{"header":"YQ==","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`), ErrDecrypt},
		{"plain JSON reply", []byte(jweReply), ErrEnvelope},
		{"empty body", nil, ErrEnvelope},
		{"not JSON", []byte("<html>"), ErrEnvelope},
		{"JSON array", []byte(`[1]`), ErrEnvelope},
		{"envelope without tag", dropPart(t, good, "tag"), ErrDecrypt},
		{"envelope without encryptedKey", dropPart(t, good, "encryptedKey"), ErrDecrypt},
		{"signed but not encrypted", tamperedJWS(t, "none"), ErrEnvelope},
		{"JWT mixed with parts", []byte(`{"JWT":"a.b.c.d.e","header":"a"}`), ErrEnvelope},
		{"empty JWT", []byte(`{"JWT":" "}`), ErrEnvelope},
		{"JWT not a string", []byte(`{"JWT":5}`), ErrEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := j.open(context.Background(), "create session", tt.body)
			require.Nil(t, got)
			require.ErrorIs(t, err, tt.want)
			var je *JOSEError
			require.ErrorAs(t, err, &je)
			require.Equal(t, "create session", je.Op)
			require.Equal(t, tt.want, je.Kind)
			msg := err.Error()
			t.Log(msg)
			require.True(t, strings.HasPrefix(msg, "checkout: create session: reply: "), msg)
			require.NotContains(t, msg, secretMarker)
			require.NotContains(t, msg, "CHARGED")
			require.NotContains(t, msg, "go-jose")
			require.NotContains(t, msg, merchantRSA().D.String()[:16])
			require.LessOrEqual(t, len(msg), 200, msg)
		})
	}
}

// The JWS test vectors of the service's PHP and .NET SDKs. Their keys are
// not published, so the signatures cannot be checked here; what can be
// checked is everything else: RS256 is deterministic, so the SDK writes
// the very same header and payload segments, and a signature covers the
// header (the PHP vector without kid must fail).
func TestJWSConformanceVectors(t *testing.T) {
	s := conformance.Files(t, "jwt", "jws_rs256_test_vector_php_sdk.txt")[0]
	var tokens []string
	for _, line := range strings.Split(string(s.Data), "\n") {
		line = strings.TrimSpace(line)
		if strings.Count(line, ".") == 2 && strings.HasPrefix(line, "eyJ") {
			tokens = append(tokens, line)
		}
	}
	require.Len(t, tokens, 3, "PHP vector, its negative, .NET vector")
	php, negative, dotnet := tokens[0], tokens[1], tokens[2]

	for _, tc := range []struct {
		token, payload string
	}{{php, "hello world"}, {dotnet, "hello world 😀 வணக்கம்"}} {
		// The SDK's signing writes the same header and payload segments.
		ours, err := jose.Sign([]byte(tc.payload), merchantRSA(), "key_xxxxx")
		require.NoError(t, err)
		require.Equal(t, strings.Join(strings.Split(tc.token, ".")[:2], "."), strings.Join(strings.Split(ours, ".")[:2], "."))
		again, err := jose.Sign([]byte(tc.payload), merchantRSA(), "key_xxxxx")
		require.NoError(t, err)
		require.Equal(t, ours, again, "RS256 is deterministic: the same key gives the same string")

		// It parses as RS256 with kid key_xxxxx and a 2048-bit signature.
		jws, err := gojose.ParseSignedCompact(tc.token, []gojose.SignatureAlgorithm{gojose.RS256})
		require.NoError(t, err)
		require.Equal(t, "key_xxxxx", jws.Signatures[0].Protected.KeyID)
		require.Equal(t, tc.payload, string(jws.UnsafePayloadWithoutVerification()))
		require.Len(t, jws.Signatures[0].Signature, 256)
		// And it verifies with no key of ours.
		for _, k := range []*rsa.PrivateKey{merchantRSA(), serviceRSA()} {
			_, err := jose.Verify(tc.token, &k.PublicKey, "key_xxxxx", jose.KIDIfPresent)
			require.Error(t, err)
		}
	}

	// The negative vector: the PHP signature under a header without kid.
	hdr, err := base64.RawURLEncoding.DecodeString(strings.Split(negative, ".")[0])
	require.NoError(t, err)
	require.Equal(t, `{"alg":"RS256"}`, string(hdr))
	require.Equal(t, strings.Split(php, ".")[2], strings.Split(negative, ".")[2])
	// The same rule with a key we hold: dropping kid breaks the signature.
	ours, err := jose.Sign([]byte("hello world"), serviceRSA(), "key_xxxxx")
	require.NoError(t, err)
	_, err = jose.Verify(ours, &serviceRSA().PublicKey, "key_xxxxx", jose.KIDIfPresent)
	require.NoError(t, err)
	spliced := strings.Split(negative, ".")[0] + "." + strings.Join(strings.Split(ours, ".")[1:], ".")
	_, err = jose.Verify(spliced, &serviceRSA().PublicKey, "key_xxxxx", jose.KIDIfPresent)
	require.ErrorContains(t, err, "does not verify")
}

// The /v4 reply samples hold placeholders, so they cannot be decrypted;
// they must parse as envelopes and fail at decryption, not before, and the
// readable header names what the SDK accepts and sends.
func TestJWEConformanceEnvelopes(t *testing.T) {
	j := testJWE(t)
	seen := 0
	for _, s := range conformance.Files(t, "jwt", "*.json") {
		t.Run(s.Name, func(t *testing.T) {
			got, err := j.open(context.Background(), "get order", s.Data)
			require.Nil(t, got)
			switch {
			case strings.HasPrefix(s.Name, "v4_") || strings.Contains(s.Name, "jwe_json_envelope"):
				seen++
				require.True(t, isSealed(s.Data))
				tok, err2 := jose.EnvelopeToken(s.Data)
				require.NoError(t, err2)
				require.Equal(t, 4, strings.Count(tok, "."))
				require.ErrorIs(t, err, ErrDecrypt, "%v", err)
				if hdr, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[0]); err == nil && json.Valid(hdr) {
					var h map[string]string
					require.NoError(t, json.Unmarshal(hdr, &h))
					require.Equal(t, "RSA-OAEP-256", h["alg"])
					require.Equal(t, "A256GCM", h["enc"])
					require.True(t, strings.HasPrefix(h["kid"], "key_"), "replies carry the key id")
					require.Equal(t, []string{"alg", "enc", "kid"}, jsonKeys(t, hdr), "the order the SDK writes")
				}
			case strings.Contains(s.Name, "webhook_jwt"):
				require.True(t, isSealed(s.Data))
				require.ErrorIs(t, err, ErrDecrypt, "%v", err)
			case strings.Contains(s.Name, "plain"):
				require.False(t, isSealed(s.Data))
				require.ErrorIs(t, err, ErrEnvelope)
			case strings.Contains(s.Name, "jws_json"):
				// The signed envelope found inside a JWE: recognised as
				// signed, refused (its header is a placeholder).
				tok, signed, err := jose.SignedToken(s.Data)
				require.NoError(t, err)
				require.True(t, signed)
				_, err = jose.Verify(tok, &serviceRSA().PublicKey, testKID, jose.KIDIfPresent)
				require.Error(t, err)
			default:
				t.Fatalf("sample %s has no expectation", s.Name)
			}
		})
	}
	require.GreaterOrEqual(t, seen, 4, "the /v4 reply samples and the request envelope were found")
}

func TestParseRSAKeyPEM(t *testing.T) {
	k := merchantRSA()
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	pkcs8 := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: must(x509.MarshalPKCS8PrivateKey(k))})
	pkixPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: must(x509.MarshalPKIXPublicKey(&k.PublicKey))})
	pub1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&k.PublicKey)})
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "service"}, NotAfter: time.Now().Add(time.Hour)}
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: must(x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k))})

	for name, b := range map[string][]byte{"pkcs1": pkcs1, "pkcs8": pkcs8, "with text around": append(append([]byte("key for shop\n"), pkcs1...), "trailer"...)} {
		got, err := ParseRSAPrivateKeyPEM(b)
		require.NoError(t, err, name)
		require.True(t, got.Equal(k), name)
	}
	for name, b := range map[string][]byte{"pkix": pkixPEM, "pkcs1": pub1, "certificate": cert} {
		got, err := ParseRSAPublicKeyPEM(b)
		require.NoError(t, err, name)
		require.True(t, got.Equal(&k.PublicKey), name)
	}

	ec := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	ecPKCS8 := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: must(x509.MarshalPKCS8PrivateKey(ec))})
	ecPKIX := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: must(x509.MarshalPKIXPublicKey(&ec.PublicKey))})
	encrypted := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-256-CBC,00"}, Bytes: x509.MarshalPKCS1PrivateKey(k)})
	encPKCS8 := pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1, 2, 3}})
	broken := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)[:300]})
	secret := strings.Split(string(pkcs1), "\n")[3] // a line of the key's base64

	privCases := map[string]struct {
		b    []byte
		want string
	}{
		"empty":             {nil, "no PEM block found"},
		"garbage":           {[]byte("-----BEGIN nothing"), "no PEM block found"},
		"public as private": {pkixPEM, "holds a public key"},
		"EC key":            {ecPKCS8, "want RSA"},
		"encrypted PEM":     {encrypted, "encrypted PEM is not supported"},
		"encrypted PKCS#8":  {encPKCS8, "encrypted PEM is not supported"},
		"broken PKCS#1":     {broken, "invalid PKCS#1"},
	}
	for name, tc := range privCases {
		_, err := ParseRSAPrivateKeyPEM(tc.b)
		require.ErrorIs(t, err, ErrKey, name)
		require.ErrorContains(t, err, tc.want, name)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: parse private key: "), err.Error())
		require.NotContains(t, err.Error(), secret, name)
	}
	pubCases := map[string]struct {
		b    []byte
		want string
	}{
		"empty":             {nil, "no PEM block found"},
		"private as public": {pkcs1, "is a private key"},
		"EC key":            {ecPKIX, "want RSA"},
		"bad certificate":   {pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}), "invalid certificate"},
		"other block":       {pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: []byte{1}}), `PEM block "EC PARAMETERS"`},
	}
	for name, tc := range pubCases {
		_, err := ParseRSAPublicKeyPEM(tc.b)
		require.ErrorIs(t, err, ErrKey, name)
		require.ErrorContains(t, err, tc.want, name)
		require.True(t, strings.HasPrefix(err.Error(), "checkout: parse public key: "), err.Error())
		require.NotContains(t, err.Error(), secret, name)
	}
}

func TestJOSEErrorNil(t *testing.T) {
	var e *JOSEError
	require.NotPanics(t, func() { _ = e.Error() })
	require.Nil(t, e.Unwrap())
	err := error(&JOSEError{Op: "get order", Kind: ErrSignature, Detail: "x"})
	require.True(t, errors.Is(err, ErrSignature))
	require.False(t, errors.Is(err, ErrDecrypt))
	require.Equal(t, "checkout: get order: x", err.Error())
}
