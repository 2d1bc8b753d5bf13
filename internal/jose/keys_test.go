package jose

import (
	"context"
	"crypto"
	"crypto/rsa"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// hsmKey is a key behind crypto.Signer and crypto.Decrypter: pub is what
// Public says, priv what it uses, wait (when set) what every operation
// waits for.
type hsmKey struct {
	pub  *rsa.PublicKey
	priv *rsa.PrivateKey
	wait chan struct{}
}

func (k hsmKey) Public() crypto.PublicKey { return k.pub }
func (k hsmKey) Sign(r io.Reader, d []byte, o crypto.SignerOpts) ([]byte, error) {
	if k.wait != nil {
		<-k.wait
	}
	return k.priv.Sign(r, d, o)
}
func (k hsmKey) Decrypt(r io.Reader, m []byte, o crypto.DecrypterOpts) ([]byte, error) {
	if k.wait != nil {
		<-k.wait
	}
	return k.priv.Decrypt(r, m, o)
}

func TestCheckKeys(t *testing.T) {
	a := hsmKey{pub: &keyA().PublicKey, priv: keyA()}
	pub, err := CheckKeys("merchant key", a, a)
	require.NoError(t, err)
	require.True(t, pub.Equal(&keyA().PublicKey))
	_, err = CheckKeys("merchant key", a, keyB())
	require.Equal(t, KindKey, kindOf(t, err))
	require.EqualError(t, err, "merchant key: the signer and the decrypter are of different key pairs (their public keys differ)")
	_, err = CheckKeys("merchant key", panicky{a}, a)
	require.Equal(t, KindKeyOp, kindOf(t, err))
}

type panicky struct{ hsmKey }

func (panicky) Public() crypto.PublicKey { panic("no session") }

// ProveKeys finds a key that works with another pair than its Public
// names, and gives up on a key that does not answer within its timeout.
func TestProveKeys(t *testing.T) {
	pubA := &keyA().PublicKey
	good := hsmKey{pub: pubA, priv: keyA()}
	liar := hsmKey{pub: pubA, priv: keyB()}
	require.NoError(t, ProveKeys(good, good, pubA, time.Minute))
	require.NoError(t, ProveKeys(keyA(), keyA(), pubA, 0), "one raw key is not run")
	require.NoError(t, ProveKeys(nil, good, pubA, time.Minute), "the decrypter alone")

	err := ProveKeys(liar, good, pubA, time.Minute)
	require.Equal(t, KindKey, kindOf(t, err))
	require.Contains(t, err.Error(), "the signer's test signature does not verify")
	err = ProveKeys(good, liar, pubA, time.Minute)
	require.Equal(t, KindKey, kindOf(t, err))
	require.Contains(t, err.Error(), "the decrypter cannot open a secret")

	hung := hsmKey{pub: pubA, priv: keyA(), wait: make(chan struct{})}
	err = ProveKeys(hung, hung, pubA, 20*time.Millisecond)
	require.Equal(t, KindKeyOp, kindOf(t, err))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.EqualError(t, err, "the key did not sign and decrypt a test value within 20ms")
	close(hung.wait)

	locked := errors.New("locked")
	err = ProveKeys(failing{good, locked}, good, pubA, time.Minute)
	require.Equal(t, KindKeyOp, kindOf(t, err))
	require.ErrorIs(t, err, locked)
	require.EqualError(t, err, "signing a test digest: the key failed: locked")
}

type failing struct {
	hsmKey
	err error
}

func (f failing) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) { return nil, f.err }

// A signature from a key behind crypto.Signer is checked with its Public
// key before Sign returns it.
func TestSignChecksAnOpaqueSignature(t *testing.T) {
	_, err := Sign([]byte(`{}`), hsmKey{pub: &keyA().PublicKey, priv: keyB()}, "k")
	require.Equal(t, KindKeyOp, kindOf(t, err))
	require.EqualError(t, err, "the signature the key made does not verify with its public key")
	jws, err := Sign([]byte(`{}`), hsmKey{pub: &keyA().PublicKey, priv: keyA()}, "k")
	require.NoError(t, err)
	_, err = Verify(jws, &keyA().PublicKey, "k", KIDRequired)
	require.NoError(t, err)
	_, err = Sign([]byte(`{}`), panicky{}, "k")
	require.Equal(t, KindKeyOp, kindOf(t, err))
}
