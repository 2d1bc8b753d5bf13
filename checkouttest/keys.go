package checkouttest

import (
	"crypto"
	"crypto/rsa"
	"io"
)

// KeyHandle is a merchant key as an HSM or a key service hands it out:
// it signs and decrypts, and nothing reaches the private key itself.
type KeyHandle interface {
	crypto.Signer
	crypto.Decrypter
}

// MerchantKeyHandle returns the fake's merchant key (see [Server.JWE])
// wrapped so that only crypto.Signer and crypto.Decrypter are reachable,
// for testing [checkout.WithJWEKeys] and a webhook JWEConfig.Decrypter.
// A nil or zero Server returns nil.
func (s *Server) MerchantKeyHandle() KeyHandle {
	if !s.started() {
		return nil
	}
	return &keyHandle{k: s.v4Keys().merchant}
}

type keyHandle struct{ k *rsa.PrivateKey }

func (h *keyHandle) Public() crypto.PublicKey { return &h.k.PublicKey }

func (h *keyHandle) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	return h.k.Sign(r, digest, opts)
}

func (h *keyHandle) Decrypt(r io.Reader, msg []byte, opts crypto.DecrypterOpts) ([]byte, error) {
	return h.k.Decrypt(r, msg, opts)
}
