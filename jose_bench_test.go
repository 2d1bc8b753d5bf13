package checkout

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"testing"

	gojose "github.com/go-jose/go-jose/v4"
)

// ---- benchmarks: the SDK's seal+open beside the RSA operations alone ----

// benchJWEBodies are a session request and reply of realistic size.
func benchJWEBodies(b *testing.B) (req, reply []byte) {
	req, err := json.Marshal(benchRequest())
	if err != nil {
		b.Fatal(err)
	}
	return req, []byte(benchSessionReply)
}

// BenchmarkRSAOperations is the cryptography of one JWE+JWS call done with
// go-jose directly: sign and encrypt the request, decrypt and verify the
// reply. BenchmarkSealOpen does the same through the SDK.
func BenchmarkRSAOperations(b *testing.B) {
	req, reply := benchJWEBodies(b)
	mk, sk := merchantRSA(), serviceRSA()
	sign := func(p []byte, k *rsa.PrivateKey) string {
		s := must(gojose.NewSigner(gojose.SigningKey{Algorithm: gojose.RS256, Key: k}, (&gojose.SignerOptions{}).WithHeader("kid", testKID)))
		return must(must(s.Sign(p)).CompactSerialize())
	}
	encrypt := func(p []byte, k *rsa.PublicKey) string {
		e := must(gojose.NewEncrypter(gojose.A256GCM, gojose.Recipient{Algorithm: gojose.RSA_OAEP_256, Key: k, KeyID: testKID}, nil))
		return must(must(e.Encrypt(p)).CompactSerialize())
	}
	decrypt := func(tok string, k *rsa.PrivateKey) []byte {
		return must(must(gojose.ParseEncryptedCompact(tok, []gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})).Decrypt(k))
	}
	verify := func(tok string, k *rsa.PublicKey) []byte {
		return must(must(gojose.ParseSignedCompact(tok, []gojose.SignatureAlgorithm{gojose.RS256})).Verify(k))
	}
	signedReply := sign(reply, sk)
	sealedReply := encrypt([]byte(signedReply), &mk.PublicKey)
	signedReq := sign(req, mk)

	b.Run("sign", func(b *testing.B) {
		for b.Loop() {
			sign(req, mk)
		}
	})
	b.Run("encrypt", func(b *testing.B) {
		for b.Loop() {
			encrypt([]byte(signedReq), &sk.PublicKey)
		}
	})
	b.Run("decrypt", func(b *testing.B) {
		for b.Loop() {
			decrypt(sealedReply, mk)
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			verify(signedReply, &sk.PublicKey)
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			encrypt([]byte(sign(req, mk)), &sk.PublicKey)
			if len(verify(string(decrypt(sealedReply, mk)), &sk.PublicKey)) != len(reply) {
				b.Fatal("reply changed")
			}
		}
	})
}

// BenchmarkSealOpen is the SDK's seal of a session request and open of a
// session reply (in the service's JSON envelopes, with every check).
func BenchmarkSealOpen(b *testing.B) {
	req, reply := benchJWEBodies(b)
	j := testJWE(b)
	sealed := svcReply{}.seal(b, string(reply))
	b.Run("seal", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.seal(context.Background(), "create session", req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.open(context.Background(), "create session", sealed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.seal(context.Background(), "create session", req); err != nil {
				b.Fatal(err)
			}
			p, err := j.open(context.Background(), "create session", sealed)
			if err != nil || len(p) != len(reply) {
				b.Fatal(err)
			}
		}
	})
}
