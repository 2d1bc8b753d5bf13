package jose

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1" //nolint:gosec // RSA-OAEP with SHA-1, which one of the service's SDKs sends
	"crypto/sha256"
	"errors"
	"hash"

	gojose "github.com/go-jose/go-jose/v4"
)

// KindKeyOp is a failure of the merchant's own signer or decrypter (a
// locked HSM, a key service that timed out), as opposed to a reply that is
// wrong. Its Error carries the cause.
const KindKeyOp Kind = KindKey + 1

// CheckKeys reports whether signer and decrypter are usable RSA keys of at
// least MinRSABits. A *rsa.PrivateKey is checked as CheckPrivateKey does.
func CheckKeys(name string, signer crypto.Signer, decrypter crypto.Decrypter) error {
	for _, k := range []any{signer, decrypter} {
		if p, ok := k.(*rsa.PrivateKey); ok {
			if err := CheckPrivateKey(name, p); err != nil {
				return err
			}
		}
	}
	if signer == nil || decrypter == nil {
		return fail(KindKey, name+" is nil")
	}
	for _, pub := range []crypto.PublicKey{signer.Public(), decrypter.Public()} {
		rk, ok := pub.(*rsa.PublicKey)
		if !ok {
			return fail(KindKey, name+" is not an RSA key")
		}
		if err := CheckPublicKey(name, rk); err != nil {
			return err
		}
	}
	return nil
}

// signingKey is the go-jose signing key of signer: the key itself when it
// is an *rsa.PrivateKey, else go-jose's opaque signer hook over it.
func signingKey(signer crypto.Signer) (any, *opaqueRSA) {
	if k, ok := signer.(*rsa.PrivateKey); ok {
		return k, nil
	}
	o := &opaqueRSA{signer: signer}
	return o, o
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
// key's own error, which go-jose replaces by a generic one. One is made
// per operation.
type opaqueRSA struct {
	signer    crypto.Signer
	decrypter crypto.Decrypter
	err       error
}

func (o *opaqueRSA) Public() *gojose.JSONWebKey {
	return &gojose.JSONWebKey{Key: o.signer.Public(), Algorithm: string(gojose.RS256)}
}

func (o *opaqueRSA) Algs() []gojose.SignatureAlgorithm { return signatureAlgs() }

func (o *opaqueRSA) SignPayload(payload []byte, alg gojose.SignatureAlgorithm) ([]byte, error) {
	if alg != gojose.RS256 {
		return nil, gojose.ErrUnsupportedAlgorithm
	}
	sum := sha256.Sum256(payload)
	sig, err := o.signer.Sign(rand.Reader, sum[:], crypto.SHA256)
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
	key, err := o.decrypter.Decrypt(rand.Reader, encryptedKey, &rsa.OAEPOptions{Hash: hashOf(hf)})
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

// keyOpErr is the error of a failed signer or decrypter at step ("sign
// request", "decrypt reply"), or nil when o saw none.
func (o *opaqueRSA) keyOpErr(step string) error {
	if o == nil || o.err == nil {
		return nil
	}
	return &Error{Kind: KindKeyOp, Detail: step + ": the key failed: " + o.err.Error(), Err: o.err}
}
