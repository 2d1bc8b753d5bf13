package webhook

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"sync"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

// Keys are generated once per test binary: RSA generation is slow under -race.
var (
	merchantKey = sync.OnceValue(func() *rsa.PrivateKey { return genKey() })
	serviceKey  = sync.OnceValue(func() *rsa.PrivateKey { return genKey() })
	strangerKey = sync.OnceValue(func() *rsa.PrivateKey { return genKey() })
)

func genKey() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
}

func pkcs1PEM(k *rsa.PrivateKey) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
}

func pkcs8PEM(t *testing.T, k any) []byte {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

func pkixPEM(t *testing.T, k any) []byte {
	der, err := x509.MarshalPKIXPublicKey(k)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

const utf8Event = `{"id":"evt_jwe_1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_ஆ_1","status":"CHARGED","note":"hello world 😀 வணக்கம்"}}}`

func seal(t *testing.T, payload string, opts SealOptions) string {
	t.Helper()
	if opts.Recipient == nil {
		opts.Recipient = &merchantKey().PublicKey
	}
	tok, err := Seal([]byte(payload), opts)
	require.NoError(t, err)
	return tok
}

// jweVerifier returns baseConfig with a JWEDecrypter made from jc, and the
// Verifier made from it, for tests that deliver encrypted webhooks.
func jweVerifier(t *testing.T, jc JWEConfig) (Config, *Verifier) {
	t.Helper()
	dec, err := NewJWEDecrypter(jc)
	require.NoError(t, err)
	cfg := baseConfig()
	cfg.Decrypter = dec
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	return cfg, v
}

// hugeHeader is a compact JWE (or, cut, JWS) whose protected header is hdr
// and whose other parts are placeholders.
func hugeHeader(hdr string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(hdr)) + ".a2V5.aXY.Y2lwaGVy.dGFn"
}

// jsonJWS writes a compact JWS as {"header","payload","signature"}, the
// form the service's encrypted API replies use, with independent code.
func jsonJWS(t *testing.T, compact string) string {
	t.Helper()
	p := strings.Split(compact, ".")
	require.Len(t, p, 3)
	b, err := json.Marshal(map[string]string{"header": p[0], "payload": p[1], "signature": p[2]})
	require.NoError(t, err)
	return string(b)
}

// goJoseSign signs with go-jose directly (not the package's Seal).
func goJoseSign(t *testing.T, alg jose.SignatureAlgorithm, key any, kid, payload string) string {
	t.Helper()
	so := &jose.SignerOptions{}
	if kid != "" {
		so = so.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, so)
	require.NoError(t, err)
	jws, err := s.Sign([]byte(payload))
	require.NoError(t, err)
	c, err := jws.CompactSerialize()
	require.NoError(t, err)
	return c
}
