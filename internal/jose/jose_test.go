package jose

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"strings"
	"sync"
	"testing"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

var (
	keyA = sync.OnceValue(func() *rsa.PrivateKey { k, _ := rsa.GenerateKey(rand.Reader, 2048); return k })
	keyB = sync.OnceValue(func() *rsa.PrivateKey { k, _ := rsa.GenerateKey(rand.Reader, 2048); return k })
)

func kindOf(t *testing.T, err error) Kind {
	t.Helper()
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	return e.Kind
}

// The service (or a fake of it) opens requests with the keys the other
// way round: Seal and Open are inverse for any pair of key pairs.
func TestSealOpenBothDirections(t *testing.T) {
	body := []byte(`{"order_id":"o_1","amount":"1.0"}`)
	sealed, err := Seal(body, keyA(), &keyB().PublicKey, "key_1")
	require.NoError(t, err)
	require.True(t, IsEnvelope(sealed))
	got, err := Open(sealed, keyB(), &keyA().PublicKey, "key_1")
	require.NoError(t, err)
	require.Equal(t, string(body), string(got))

	_, err = Open(sealed, keyA(), &keyB().PublicKey, "key_1")
	require.Equal(t, KindDecrypt, kindOf(t, err))
	_, err = Open(sealed, keyB(), &keyB().PublicKey, "key_1")
	require.Equal(t, KindSignature, kindOf(t, err))
	_, err = Open(sealed, keyB(), &keyA().PublicKey, "key_2")
	require.Equal(t, KindDecrypt, kindOf(t, err))
	_, err = Open(sealed, keyB(), &keyA().PublicKey, "")
	require.Equal(t, KindKey, kindOf(t, err))
}

func TestSignedToken(t *testing.T) {
	compact, err := Sign([]byte(`{"a":1}`), keyA(), "k")
	require.NoError(t, err)
	p := strings.Split(compact, ".")
	cases := []struct {
		in       string
		signed   bool
		wantErr  bool
		wantTok  string
		describe string
	}{
		{compact, true, false, compact, "compact"},
		{"\n " + compact + "\n", true, false, compact, "compact with white space"},
		{`{"header":"` + p[0] + `","payload":"` + p[1] + `","signature":"` + p[2] + `"}`, true, false, compact, "JSON"},
		{`{"signature":"` + p[2] + `","header":"` + p[0] + `","payload":"` + p[1] + `","x":1}`, true, false, compact, "JSON, other order, extra key"},
		{p[0] + "." + p[1] + ".", true, false, p[0] + "." + p[1] + ".", "compact with an empty signature (alg none)"},
		{`{"event_name":"X","content":{}}`, false, false, "", "plain event"},
		{`{"header":"a","payload":"b"}`, false, false, "", "no signature key: unsigned"},
		{`hello.world`, false, false, "", "two parts"},
		{`a..c`, false, false, "", "empty payload"},
		{`.b.c`, false, false, "", "empty header"},
		{`a.b.c d`, false, false, "", "space inside"},
		{`{"header":"a","payload":"b","signature":null}`, true, false, "a.b.", "null signature: an empty one, refused by Verify"},
		{`{"header":"","payload":"b","signature":"c"}`, false, true, "", "empty header"},
		{`{"header":"a.b","payload":"b","signature":"c"}`, false, true, "", "dot in a part"},
		{`[1,2]`, false, false, "", "array"},
		{``, false, false, "", "empty"},
	}
	for _, c := range cases {
		tok, signed, err := SignedToken([]byte(c.in))
		require.Equal(t, c.signed, signed, c.describe)
		require.Equal(t, c.wantTok, tok, c.describe)
		if c.wantErr {
			require.Equal(t, KindSignature, kindOf(t, err), c.describe)
		} else {
			require.NoError(t, err, c.describe)
		}
	}
}

func TestEnvelopeTokenAndIsEnvelope(t *testing.T) {
	tok, err := EnvelopeToken([]byte(`{"header":"a","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e","extra":1}`))
	require.NoError(t, err)
	require.Equal(t, "a.b.c.d.e", tok)
	tok, err = EnvelopeToken([]byte(` {"JWT":" a.b.c.d.e "} `))
	require.NoError(t, err)
	require.Equal(t, "a.b.c.d.e", tok)

	require.True(t, IsEnvelope([]byte(`{"JWT":"x"}`)))
	require.True(t, IsEnvelope([]byte(`{"encryptedPayload":"x"}`)))
	require.False(t, IsEnvelope([]byte(`{"status":"NEW"}`)))
	require.False(t, IsEnvelope([]byte(`{"header":"a","payload":"b","signature":"c"}`)))
	require.False(t, IsEnvelope([]byte(`nope`)))
}

func TestEncryptRefusesOtherAlgorithms(t *testing.T) {
	_, err := Encrypt([]byte("x"), &keyA().PublicKey, "", gojose.RSA1_5)
	require.Equal(t, KindKey, kindOf(t, err))
	_, err = Encrypt([]byte("x"), nil, "", gojose.RSA_OAEP_256)
	require.Equal(t, KindKey, kindOf(t, err))
	_, err = Sign([]byte("x"), nil, "")
	require.Equal(t, KindKey, kindOf(t, err))
	_, err = Decrypt("a.b.c.d.e", nil, "")
	require.Equal(t, KindKey, kindOf(t, err))
	_, err = Verify("a.b.c", nil, "", KIDIfPresent)
	require.Equal(t, KindKey, kindOf(t, err))
}

// Text the sender chose is clipped in errors.
func TestQuoteClips(t *testing.T) {
	long := strings.Repeat("ஆ", 100)
	q := quote(long)
	require.Equal(t, `"`+strings.Repeat("ஆ", 24)+`"`, q, "cut on a character boundary")
	tok := strings.Repeat("x", 10)
	_, err := Decrypt(tok, keyA(), "")
	require.Equal(t, KindDecrypt, kindOf(t, err))
	require.NotContains(t, err.Error(), "go-jose")
}

// sealZipped encrypts plain to key compressed with DEFLATE ("zip":"DEF"),
// as go-jose can and the service does not.
func sealZipped(t testing.TB, plain []byte, key *rsa.PublicKey) string {
	t.Helper()
	e, err := gojose.NewEncrypter(gojose.A256GCM, gojose.Recipient{Algorithm: gojose.RSA_OAEP_256, Key: key, KeyID: "key_1"},
		&gojose.EncrypterOptions{Compression: gojose.DEFLATE})
	require.NoError(t, err)
	obj, err := e.Encrypt(plain)
	require.NoError(t, err)
	tok, err := obj.CompactSerialize()
	require.NoError(t, err)
	return tok
}

// A zip bomb (a few kilobytes of DEFLATE that would expand past go-jose's
// limit) is refused as what it is, not as a token for another key: the
// merchant's key is fine, the sender is not.
func TestZipBombSaysWhatHappened(t *testing.T) {
	bomb := sealZipped(t, bytes.Repeat([]byte("0"), 8<<20), &keyA().PublicKey)
	require.Less(t, len(bomb), 64<<10, "compressed, it is small")
	_, err := Decrypt(bomb, keyA(), "key_1")
	require.Equal(t, KindDecrypt, kindOf(t, err))
	require.EqualError(t, err, `the token's content is compressed ("zip":"DEF") and decompresses past the limit `+
		`(250 kB, or 10 times its compressed size): refused as a decompression bomb, or it is not DEFLATE`)

	// Through Open too, whichever envelope carries it.
	for _, body := range []string{`{"JWT":"` + bomb + `"}`, envelopeOf(bomb)} {
		_, err = Open([]byte(body), keyA(), &keyB().PublicKey, "key_1")
		require.ErrorContains(t, err, "decompression bomb")
	}

	// A compression go-jose does not know is named.
	e, err := gojose.NewEncrypter(gojose.A256GCM, gojose.Recipient{Algorithm: gojose.RSA_OAEP_256, Key: &keyA().PublicKey},
		(&gojose.EncrypterOptions{}).WithHeader("zip", "LZW"))
	require.NoError(t, err)
	obj, err := e.Encrypt([]byte(`{}`))
	require.NoError(t, err)
	lzw, err := obj.CompactSerialize()
	require.NoError(t, err)
	_, err = Decrypt(lzw, keyA(), "")
	require.EqualError(t, err, `the token's content is compressed with "LZW", which is not supported`)

	// Compressed content within the limit opens as before; another key is
	// still "another key".
	small := sealZipped(t, []byte(`{"order_id":"o_1"}`), &keyA().PublicKey)
	got, err := Decrypt(small, keyA(), "key_1")
	require.NoError(t, err)
	require.Equal(t, `{"order_id":"o_1"}`, string(got))
	_, err = Decrypt(small, keyB(), "key_1")
	require.EqualError(t, err, "the token does not decrypt with the private key (another key, or tampered)")
}

// envelopeOf writes a compact JWE as the service's JSON envelope.
func envelopeOf(tok string) string {
	p := strings.Split(tok, ".")
	return `{"header":"` + p[0] + `","encryptedKey":"` + p[1] + `","iv":"` + p[2] + `","encryptedPayload":"` + p[3] + `","tag":"` + p[4] + `"}`
}
