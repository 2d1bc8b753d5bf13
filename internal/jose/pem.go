package jose

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strings"
)

// MinRSABits is the smallest RSA modulus accepted for either key: the
// service issues and expects 2048-bit keys.
const MinRSABits = 2048

// CheckPrivateKey reports whether k is a usable RSA private key of at least
// MinRSABits. name ("merchant key") starts the message.
func CheckPrivateKey(name string, k *rsa.PrivateKey) error {
	if k == nil {
		return fail(KindKey, name+" is nil")
	}
	if k.N == nil || k.D == nil || len(k.Primes) < 2 || k.Validate() != nil {
		return fail(KindKey, name+" is not a valid RSA private key")
	}
	if bits := k.N.BitLen(); bits < MinRSABits {
		return fail(KindKey, fmt.Sprintf("%s has %d bits, want at least %d", name, bits, MinRSABits))
	}
	return nil
}

// CheckPublicKey reports whether k is a plausible RSA public key of at
// least MinRSABits. name ("service key") starts the message.
func CheckPublicKey(name string, k *rsa.PublicKey) error {
	if k == nil {
		return fail(KindKey, name+" is nil")
	}
	if k.N == nil || k.N.Sign() <= 0 || k.E < 3 || k.E%2 == 0 {
		return fail(KindKey, name+" is not a valid RSA public key")
	}
	if bits := k.N.BitLen(); bits < MinRSABits {
		return fail(KindKey, fmt.Sprintf("%s has %d bits, want at least %d", name, bits, MinRSABits))
	}
	return nil
}

// ParsePrivateKeyPEM reads the first PEM block of b as an RSA private key
// in PKCS#1 ("RSA PRIVATE KEY") or PKCS#8 ("PRIVATE KEY") form. Encrypted
// PEM is refused with advice. The error never quotes the key.
func ParsePrivateKeyPEM(b []byte) (*rsa.PrivateKey, error) {
	block, err := decodePEM(b)
	if err != nil {
		return nil, err
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, fail(KindKey, "invalid PKCS#1 RSA key")
		}
		return k, nil
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fail(KindKey, "invalid PKCS#8 key")
		}
		rk, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, fail(KindKey, fmt.Sprintf("PKCS#8 key is %T, want RSA", k))
		}
		return rk, nil
	case "PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE":
		return nil, fail(KindKey, "PEM block "+quote(block.Type)+" holds a public key; want the private key")
	default:
		return nil, fail(KindKey, "PEM block "+quote(block.Type)+`, want "RSA PRIVATE KEY" or "PRIVATE KEY"`)
	}
}

// ParsePublicKeyPEM reads the first PEM block of b as an RSA public key:
// PKIX ("PUBLIC KEY"), PKCS#1 ("RSA PUBLIC KEY") or the key of an X.509
// certificate ("CERTIFICATE"; the certificate itself is not checked).
func ParsePublicKeyPEM(b []byte) (*rsa.PublicKey, error) {
	block, err := decodePEM(b)
	if err != nil {
		return nil, err
	}
	var k any
	switch block.Type {
	case "PUBLIC KEY":
		k, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PUBLIC KEY":
		k, err = x509.ParsePKCS1PublicKey(block.Bytes)
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			k = cert.PublicKey
		}
	case "RSA PRIVATE KEY", "PRIVATE KEY":
		return nil, fail(KindKey, "PEM block "+quote(block.Type)+" is a private key; want the public key")
	default:
		return nil, fail(KindKey, "PEM block "+quote(block.Type)+`, want "PUBLIC KEY", "RSA PUBLIC KEY" or "CERTIFICATE"`)
	}
	if err != nil {
		return nil, fail(KindKey, "invalid "+strings.ToLower(block.Type))
	}
	rk, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, fail(KindKey, fmt.Sprintf("%T, want RSA", k))
	}
	return rk, nil
}

// decodePEM returns the first PEM block of b, refusing encrypted PEM.
func decodePEM(b []byte) (*pem.Block, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fail(KindKey, "no PEM block found")
	}
	if block.Type == "ENCRYPTED PRIVATE KEY" || strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") {
		return nil, fail(KindKey, "encrypted PEM is not supported: decrypt the key first (openssl pkey -in key.pem -out plain.pem)")
	}
	return block, nil
}
