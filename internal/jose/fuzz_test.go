package jose

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

// FuzzOpen opens what a stranger may send as a sealed /v4 reply (Open) or
// as an encrypted webhook (EnvelopeToken, Decrypt, SignedToken, Verify),
// seeded with the service's shapes: the JSON envelope and {"JWT": …}
// around signed content, compact and JSON-signed, compressed, and broken
// on purpose. It never panics; every failure is an *Error of a known kind
// whose text holds none of go-jose's; and what opens is what was sealed.
func FuzzOpen(f *testing.F) {
	payload := []byte(`{"order_id":"ord_1","status":"CHARGED","amount":"10.00"}`)
	sealed, err := Seal(payload, keyA(), &keyB().PublicKey, "key_1")
	require.NoError(f, err)
	compactSigned, err := Sign(payload, keyA(), "key_1")
	require.NoError(f, err)
	jwtSigned, err := Encrypt([]byte(compactSigned), &keyB().PublicKey, "key_1", gojose.RSA_OAEP)
	require.NoError(f, err)
	unsigned, err := Encrypt(payload, &keyB().PublicKey, "key_1", gojose.RSA_OAEP_256)
	require.NoError(f, err)
	for _, seed := range [][]byte{
		sealed,
		[]byte(`{"JWT":"` + jwtSigned + `"}`),
		[]byte(`{"JWT":"` + unsigned + `"}`),
		[]byte(`{"JWT":"` + sealZipped(f, payload, &keyB().PublicKey) + `"}`),
		[]byte(envelopeOf(jwtSigned)),
		sealed[:len(sealed)/2],
		bytes.Replace(sealed, []byte(`"tag":"`), []byte(`"tag":"AA`), 1),
		[]byte(`{"JWT":"` + hugeHeader(`{"alg":"none","enc":"A256GCM","kid":"key_1"}`) + `"}`),
		[]byte(`{"JWT":"a.b.c.d.e","encryptedPayload":"x"}`),
		[]byte(`{"status":"CHARGED"}`),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(err error) {
			if err == nil {
				return
			}
			var e *Error
			require.True(t, errors.As(err, &e), "%T", err)
			require.True(t, e.Kind >= KindEnvelope && e.Kind <= KindKey, "kind %d", e.Kind)
			require.NotContains(t, strings.ToLower(e.Detail), "go-jose")
			require.Less(t, len(e.Detail), 400, "sender-chosen text is clipped")
		}
		// A /v4 reply.
		got, err := Open(body, keyB(), &keyA().PublicKey, "key_1")
		check(err)
		if err == nil {
			require.Equal(t, string(payload), string(got), "only what was sealed opens")
		}
		// An encrypted webhook.
		tok, err := EnvelopeToken(body)
		check(err)
		if err != nil {
			return
		}
		plain, err := Decrypt(tok, keyB(), "")
		check(err)
		if err != nil {
			return
		}
		jws, signed, err := SignedToken(plain)
		check(err)
		if err == nil && signed {
			got, err := Verify(jws, &keyA().PublicKey, "key_1", KIDRequired)
			check(err)
			if err == nil {
				require.Equal(t, string(payload), string(got))
			}
		}
	})
}

// hugeHeader is a compact JWE whose protected header is hdr and whose
// other parts are placeholders.
func hugeHeader(hdr string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(hdr)) + ".a2V5.aXY.Y2lwaGVy.dGFn"
}
