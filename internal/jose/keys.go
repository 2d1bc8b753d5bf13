package jose

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1" //nolint:gosec // RSA-OAEP with SHA-1, which one of the service's SDKs sends
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"time"

	gojose "github.com/go-jose/go-jose/v4"
)

// KindKeyOp is a failure of the merchant's own signer or decrypter (a
// locked HSM, a key service that timed out), as opposed to a reply that is
// wrong. Its Error carries the cause.
const KindKeyOp Kind = KindKey + 1

// CheckKeys reports whether signer and decrypter are usable RSA keys of at
// least MinRSABits and of one key pair (their Public keys are equal), and
// returns that public key. A *rsa.PrivateKey is checked as CheckPrivateKey
// does. A panic of either key's Public is a KindKeyOp Error.
func CheckKeys(name string, signer crypto.Signer, decrypter crypto.Decrypter) (*rsa.PublicKey, error) {
	for _, k := range []any{signer, decrypter} {
		if p, ok := k.(*rsa.PrivateKey); ok {
			if err := CheckPrivateKey(name, p); err != nil {
				return nil, err
			}
		}
	}
	if signer == nil || decrypter == nil {
		return nil, fail(KindKey, name+" is nil")
	}
	var pubs [2]*rsa.PublicKey
	for i, k := range []interface{ Public() crypto.PublicKey }{signer, decrypter} {
		pub, err := PublicKey(k)
		if err != nil {
			return nil, err
		}
		rk, ok := pub.(*rsa.PublicKey)
		if !ok {
			return nil, fail(KindKey, name+" is not an RSA key")
		}
		if err := CheckPublicKey(name, rk); err != nil {
			return nil, err
		}
		pubs[i] = rk
	}
	if !pubs[0].Equal(pubs[1]) {
		return nil, fail(KindKey, name+": the signer and the decrypter are of different key pairs (their public keys differ)")
	}
	return pubs[0], nil
}

// PublicKey returns k.Public(), a panic of which is a KindKeyOp Error.
func PublicKey(k interface{ Public() crypto.PublicKey }) (crypto.PublicKey, error) {
	return guarded(func() (crypto.PublicKey, error) { return k.Public(), nil })
}

// ProveKeys makes the merchant's key show that it holds the private key of
// pub: signer (when not nil) signs a test digest, checked with pub, and
// decrypter (when not nil) opens a secret encrypted to pub (RSA-OAEP-256).
// A key that fails, panics or has not answered within timeout gives a
// KindKeyOp Error; a key that answers wrong (a signature pub refuses, a
// secret it cannot open: a key pair other than its Public's) gives a
// KindKey Error. The keys run aside (see Aside), so a key that hangs is
// left behind after timeout, holding one goroutine until it returns. One
// *rsa.PrivateKey as both (WithJWE) proves nothing more and is not run.
func ProveKeys(signer crypto.Signer, decrypter crypto.Decrypter, pub *rsa.PublicKey, timeout time.Duration) error {
	if k, ok := signer.(*rsa.PrivateKey); ok && crypto.Decrypter(k) == decrypter && k.PublicKey.Equal(pub) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := Aside(ctx, make(chan struct{}, 1), func() ([]byte, error) {
		return nil, proveKeys(signer, decrypter, pub)
	})
	if ctxErr := ctx.Err(); err != nil && errors.Is(err, ctxErr) {
		return &Error{Kind: KindKeyOp, Err: ctxErr,
			Detail: fmt.Sprintf("the key did not sign and decrypt a test value within %s", timeout)}
	}
	return err
}

// keyCheckText is what ProveKeys signs: any digest would do.
const keyCheckText = "checkout-go: key pair check"

func proveKeys(signer crypto.Signer, decrypter crypto.Decrypter, pub *rsa.PublicKey) error {
	if signer != nil {
		digest := sha256.Sum256([]byte(keyCheckText))
		sig, err := guarded(func() ([]byte, error) { return signer.Sign(rand.Reader, digest[:], crypto.SHA256) })
		if err != nil {
			return keyFailed("signing a test digest", err)
		}
		if rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest[:], sig) != nil {
			return fail(KindKey, "the signer's test signature does not verify with its public key: "+
				"the signer signs with another key pair than its Public says")
		}
	}
	if decrypter != nil {
		secret := make([]byte, 32)
		_, _ = rand.Read(secret)
		ct, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub, secret, nil)
		if err != nil {
			return fail(KindKey, "cannot encrypt a test secret to the key's public key")
		}
		got, err := guarded(func() ([]byte, error) {
			return decrypter.Decrypt(rand.Reader, ct, &rsa.OAEPOptions{Hash: crypto.SHA256})
		})
		if err != nil && !errors.Is(err, rsa.ErrDecryption) {
			return keyFailed("decrypting a test secret", err)
		}
		if err != nil || !bytes.Equal(got, secret) {
			return fail(KindKey, "the decrypter cannot open a secret encrypted to its public key: "+
				"it decrypts with another key pair than its Public says")
		}
	}
	return nil
}

// keyFailed is the KindKeyOp Error of a key that failed or panicked while
// doing what.
func keyFailed(what string, err error) error {
	var e *Error
	if errors.As(err, &e) && e.Kind == KindKeyOp { // a panic, from guarded
		return &Error{Kind: KindKeyOp, Detail: what + ": " + e.Detail, Err: e.Err}
	}
	return &Error{Kind: KindKeyOp, Detail: what + ": the key failed: " + err.Error(), Err: err}
}

// signingKey is the go-jose signing key of signer: the key itself when it
// is an *rsa.PrivateKey, else go-jose's opaque signer hook over it, with
// the public key signer.Public returns now.
func signingKey(signer crypto.Signer) (any, *opaqueRSA, error) {
	if k, ok := signer.(*rsa.PrivateKey); ok {
		return k, nil, nil
	}
	pub, err := PublicKey(signer)
	if err != nil {
		return nil, nil, err
	}
	rk, ok := pub.(*rsa.PublicKey)
	if !ok || rk == nil {
		return nil, nil, fail(KindKeyOp, "the signer's Public is not an RSA public key")
	}
	o := &opaqueRSA{signer: signer, pub: rk}
	return o, o, nil
}

// decryptionKey is decrypter for go-jose, as signingKey.
func decryptionKey(decrypter crypto.Decrypter) (any, *opaqueRSA) {
	if k, ok := decrypter.(*rsa.PrivateKey); ok {
		return k, nil
	}
	o := &opaqueRSA{decrypter: decrypter}
	return o, o
}

// opaqueRSA adapts a crypto.Signer (RS256) or crypto.Decrypter (RSA-OAEP
// and RSA-OAEP-256 key decryption) to go-jose's opaque hooks, keeping the
// key's own error (or its recovered panic), which go-jose replaces by a
// generic one. One is made per operation.
type opaqueRSA struct {
	signer    crypto.Signer
	decrypter crypto.Decrypter
	pub       *rsa.PublicKey // the signer's
	err       error
}

func (o *opaqueRSA) Public() *gojose.JSONWebKey {
	return &gojose.JSONWebKey{Key: o.pub, Algorithm: string(gojose.RS256)}
}

func (o *opaqueRSA) Algs() []gojose.SignatureAlgorithm { return signatureAlgs() }

func (o *opaqueRSA) SignPayload(payload []byte, alg gojose.SignatureAlgorithm) ([]byte, error) {
	if alg != gojose.RS256 {
		return nil, gojose.ErrUnsupportedAlgorithm
	}
	sum := sha256.Sum256(payload)
	sig, err := guarded(func() ([]byte, error) { return o.signer.Sign(rand.Reader, sum[:], crypto.SHA256) })
	if err != nil {
		o.err = err
	}
	return sig, err
}

func (o *opaqueRSA) DecryptKey(encryptedKey []byte, h gojose.Header) ([]byte, error) {
	var hf func() hash.Hash
	switch gojose.KeyAlgorithm(h.Algorithm) {
	case gojose.RSA_OAEP_256:
		hf = sha256.New
	case gojose.RSA_OAEP:
		hf = sha1.New
	default:
		return nil, gojose.ErrUnsupportedAlgorithm
	}
	key, err := guarded(func() ([]byte, error) {
		return o.decrypter.Decrypt(rand.Reader, encryptedKey, &rsa.OAEPOptions{Hash: hashOf(hf)})
	})
	if err != nil && !errors.Is(err, rsa.ErrDecryption) {
		o.err = err // the decrypter failed, not the ciphertext
	}
	return key, err
}

func hashOf(hf func() hash.Hash) crypto.Hash {
	if hf().Size() == sha1.Size {
		return crypto.SHA1
	}
	return crypto.SHA256
}

// keyOpErr is the KindKeyOp Error of a failed or panicking signer or
// decrypter, or nil when o saw none.
func (o *opaqueRSA) keyOpErr() error {
	if o == nil || o.err == nil {
		return nil
	}
	var e *Error
	if errors.As(o.err, &e) && e.Kind == KindKeyOp { // a recovered panic
		return e
	}
	return &Error{Kind: KindKeyOp, Detail: "the key failed: " + o.err.Error(), Err: o.err}
}

// checkSignature verifies jws, just made by o, with the signer's public
// key: a signer that signs with another key, or returns a wrong signature,
// is found before anything is sent.
func (o *opaqueRSA) checkSignature(jws string) error {
	if o == nil {
		return nil
	}
	if _, err := Verify(jws, o.pub, "", KIDIfPresent); err != nil {
		return fail(KindKeyOp, "the signature the key made does not verify with its public key")
	}
	return nil
}
