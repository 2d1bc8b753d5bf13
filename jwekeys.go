package checkout

import (
	"context"
	"crypto"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/httpfield"
	"github.com/payorch/checkout-go/internal/jose"
)

// WithJWE switches the client to the service's JWE+JWS mode (see the
// package doc): [Client.CreateSession], [Client.GetOrder] and
// [Client.Refund] call their /v4 forms, signed with merchantKey and
// encrypted to serviceKey under keyID, without the Basic Authorization
// header. Both keys need 2048 bits or more; read PEM files with
// [ParseRSAPrivateKeyPEM] and [ParseRSAPublicKeyPEM]. A bad key or an empty
// key id makes NewClient fail with an error matching [ErrInvalidOption].
func WithJWE(keyID string, merchantKey *rsa.PrivateKey, serviceKey *rsa.PublicKey) Option {
	if merchantKey == nil { // not a typed nil inside the interfaces
		return WithJWEKeys(keyID, nil, nil, serviceKey)
	}
	return WithJWEKeys(keyID, merchantKey, merchantKey, serviceKey)
}

// WithJWEKeys is [WithJWE] for a merchant key held in an HSM or a key
// service: requests are signed through signer (RS256) and replies'
// content keys decrypted through decrypter (RSA-OAEP-256 or RSA-OAEP),
// usually one object. NewClient checks that both are of one key pair: one
// test signature and one test decryption, which must answer within 10 s.
// Each signature is verified with signer.Public() before it is sent. A
// failure or a panic of either key is a [*JOSEError] matching
// [ErrKeyOperation] naming the step, never retried. At most 64 key
// operations run at once; a call waits for one of them within its context
// and, when the context ends first, nothing is sent. See SECURITY.md.
func WithJWEKeys(keyID string, signer crypto.Signer, decrypter crypto.Decrypter, serviceKey *rsa.PublicKey) Option {
	return optionFunc(func(c *Client) error {
		switch {
		case strings.TrimSpace(keyID) == "":
			return optErr("JWE: key id is empty")
		case !httpfield.ValidValue(keyID):
			return optErr("JWE: key id holds control characters")
		}
		pub, err := jose.CheckKeys("merchant key", signer, decrypter)
		if err != nil {
			return keyOptErr(err)
		}
		if err := jose.CheckPublicKey("service key", serviceKey); err != nil {
			return optErr("JWE: %s", err.Error())
		}
		if err := jose.ProveKeys(signer, decrypter, pub, keyCheckTimeout); err != nil {
			return keyOptErr(err)
		}
		c.jwe = &jweConfig{keyID: keyID, signer: signer, decrypter: decrypter, pub: pub, service: serviceKey,
			slots: make(chan struct{}, maxKeyOps)}
		return nil
	})
}

// keyCheckTimeout bounds the check WithJWEKeys makes of an HSM or key
// service in NewClient, which has no context: a key that has not signed
// and decrypted within it fails NewClient with an error matching
// ErrInvalidOption and ErrKeyOperation; its call is left running aside
// (one goroutine) until it returns.
const keyCheckTimeout = 10 * time.Second

// keyOptionError is an invalid WithJWEKeys: it matches ErrInvalidOption and
// ErrKey (a key that is unusable, or of another pair) or ErrKeyOperation
// (a key that failed, panicked or did not answer in time), and the key's
// own error.
type keyOptionError struct {
	optionError
	kind, err error
}

func (e *keyOptionError) Unwrap() []error { return []error{e.kind, e.err} }

// keyOptErr is the keyOptionError of a key check's error of internal/jose.
func keyOptErr(err error) error {
	e := &keyOptionError{optionError: optionError{msg: "JWE: " + err.Error()}, kind: ErrKey}
	var je *jose.Error
	if errors.As(err, &je) {
		e.err = je.Err
		if je.Kind == jose.KindKeyOp {
			e.kind = ErrKeyOperation
		}
	}
	return e
}

// jweConfig holds the keys of the JWE+JWS mode; it prints redacted.
type jweConfig struct {
	keyID     string
	signer    crypto.Signer    // signs requests
	decrypter crypto.Decrypter // decrypts replies
	pub       *rsa.PublicKey   // the merchant's, read once in WithJWEKeys
	service   *rsa.PublicKey   // encrypts requests, verifies replies
	slots     chan struct{}    // key operations running aside (keyStep)
}

// maxKeyOps bounds the key operations of an HSM or key service running at
// once, so that one that hangs cannot pile up goroutines call after call.
const maxKeyOps = 64

// seal turns a JSON request body into the sealed /v4 body.
func (j *jweConfig) seal(ctx context.Context, op string, body []byte) ([]byte, error) {
	return keyStep(ctx, j.slots, j.signer, op, "request: ", func() ([]byte, error) {
		return jose.Seal(body, j.signer, j.service, j.keyID)
	})
}

// open turns a sealed reply into the JSON the service signed.
func (j *jweConfig) open(ctx context.Context, op string, body []byte) ([]byte, error) {
	return keyStep(ctx, j.slots, j.decrypter, op, "reply: ", func() ([]byte, error) {
		return jose.Open(body, j.decrypter, j.service, j.keyID)
	})
}

// keyStep runs f, which uses key; prefix ("request: ", "reply: ") says
// which step it is. A key of our own (*rsa.PrivateKey) runs inline;
// another (an HSM, a key service) runs aside in one of slots, waited for
// within ctx (jose.Aside), so that the call ends as soon as ctx does. Either
// way a panic of f is recovered: a failure of the key, its panic or ctx's
// end is a *JOSEError matching ErrKeyOperation that names the step.
func keyStep(ctx context.Context, slots chan struct{}, key any, op, prefix string, f func() ([]byte, error)) ([]byte, error) {
	var out []byte
	err := ctx.Err()
	switch _, inline := key.(*rsa.PrivateKey); {
	case err != nil:
		err = &jose.Error{Kind: jose.KindKeyOp, Detail: err.Error(), Err: err}
	case inline:
		out, err = jose.Guard(f)
	default:
		out, err = jose.Aside(ctx, slots, f)
	}
	if err != nil {
		return nil, joseErr(op, prefix, err)
	}
	return out, nil
}

// String describes the keys by size (value receivers: a copy prints so too).
func (j jweConfig) String() string {
	return fmt.Sprintf("JWE{kid: %q, merchant key: RSA-%d [REDACTED], service key: RSA-%d}",
		j.keyID, pubBitLen(j.pub), pubBitLen(j.service))
}

// GoString is String.
func (j jweConfig) GoString() string { return j.String() }

// Format prints String for every verb.
func (j jweConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, j.String()) }

// LogValue makes log/slog print String.
func (j jweConfig) LogValue() slog.Value { return slog.StringValue(j.String()) }

func pubBitLen(k *rsa.PublicKey) int {
	if k == nil || k.N == nil {
		return 0
	}
	return k.N.BitLen()
}
