package checkout

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWithJWEValidates(t *testing.T) {
	small := genRSA(1024)
	cases := map[string]struct {
		kid  string
		priv *rsa.PrivateKey
		pub  *rsa.PublicKey
		want string
	}{
		"empty kid":          {" ", merchantRSA(), &serviceRSA().PublicKey, "key id is empty"},
		"kid with newline":   {"key_1\n", merchantRSA(), &serviceRSA().PublicKey, "control characters"},
		"nil merchant key":   {testKID, nil, &serviceRSA().PublicKey, "merchant key is nil"},
		"nil service key":    {testKID, merchantRSA(), nil, "service key is nil"},
		"small merchant key": {testKID, small, &serviceRSA().PublicKey, "merchant key has 1024 bits, want at least 2048"},
		"small service key":  {testKID, merchantRSA(), &small.PublicKey, "service key has 1024 bits"},
		"zero merchant key":  {testKID, &rsa.PrivateKey{}, &serviceRSA().PublicKey, "not a valid RSA private key"},
		"zero service key":   {testKID, merchantRSA(), &rsa.PublicKey{}, "not a valid RSA public key"},
		"even exponent":      {testKID, merchantRSA(), &rsa.PublicKey{N: serviceRSA().N, E: 65536}, "not a valid RSA public key"},
	}
	for name, tc := range cases {
		require.NotPanics(t, func() {
			c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"), WithJWE(tc.kid, tc.priv, tc.pub))
			require.Nil(t, c, name)
			require.ErrorIs(t, err, ErrInvalidOption, name)
			require.ErrorContains(t, err, tc.want, name)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: new client: "), err.Error())
		}, name)
	}

	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"))
	require.NoError(t, err)
	require.Nil(t, c.jwe, "Basic mode by default")
	j := testJWE(t)
	require.Equal(t, testKID, j.keyID)
	require.Same(t, merchantRSA(), j.signer)
	require.Same(t, merchantRSA(), j.decrypter)
	require.True(t, j.service.Equal(&serviceRSA().PublicKey))
}

func TestJWEConfigRedacts(t *testing.T) {
	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey))
	require.NoError(t, err)
	secrets := []string{merchantRSA().D.String()[:24], merchantRSA().Primes[0].String()[:24], merchantRSA().Primes[1].String()[:24],
		fmt.Sprintf("%x", merchantRSA().D.Bytes()[:12]), testKey}
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q"} {
		for _, v := range []any{c, *c, c.jwe, *c.jwe, struct{ J *jweConfig }{c.jwe}} {
			outs = append(outs, fmt.Sprintf(verb, v))
		}
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "jwe", c.jwe, "copy", *c.jwe, "client", c)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "jwe", c.jwe, "client", c)
	outs = append(outs, buf.String())
	for _, out := range outs {
		for _, s := range secrets {
			require.NotContains(t, out, s)
		}
	}
	require.Equal(t, `JWE{kid: "`+testKID+`", merchant key: RSA-2048 [REDACTED], service key: RSA-2048}`, c.jwe.String())
	require.Contains(t, buf.String(), `"jwe":"JWE{kid:`)
}

// One client seals and opens from many goroutines (run with -race).
func TestJWEConcurrentUse(t *testing.T) {
	j := testJWE(t)
	reply := svcReply{}.seal(t, jweReply)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Go(func() {
			body := []byte(fmt.Sprintf(`{"order_id":"o_%d"}`, i))
			sealed, err := j.seal(context.Background(), "create session", body)
			if err == nil {
				var got []byte
				if got, err = j.open(context.Background(), "create session", reply); err == nil && string(got) != jweReply {
					err = errors.New("reply changed")
				}
			}
			if err == nil {
				if p, _ := svcOpenErr(sealed); string(p) != string(body) {
					err = errors.New("request changed")
				}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// handle is a merchant key reachable only as crypto.Signer and
// crypto.Decrypter, as an HSM hands it out.
type handle struct{ k *rsa.PrivateKey }

func (h handle) Public() crypto.PublicKey { return &h.k.PublicKey }
func (h handle) Sign(r io.Reader, d []byte, o crypto.SignerOpts) ([]byte, error) {
	return h.k.Sign(r, d, o)
}
func (h handle) Decrypt(r io.Reader, m []byte, o crypto.DecrypterOpts) ([]byte, error) {
	return h.k.Decrypt(r, m, o)
}

// hsm is a merchant key behind crypto.Signer and crypto.Decrypter whose
// behaviour a test sets: Public names handle's key; signWith and
// decryptWith, when set, are the keys it really uses; before runs ahead of
// each operation (numbered from 1; NewClient's check is operations 1 and
// 2 when one hsm is both keys) and may fail, panic or block. It counts the
// operations running at once.
type hsm struct {
	handle
	signWith, decryptWith *rsa.PrivateKey
	before                func(op string, n int64) error
	ops, running, peak    atomic.Int64
}

// checkOps is how many key operations NewClient's check makes.
const checkOps = 2

func (h *hsm) enter(op string) (func(), error) {
	n := h.ops.Add(1)
	r := h.running.Add(1)
	for p := h.peak.Load(); r > p && !h.peak.CompareAndSwap(p, r); p = h.peak.Load() {
	}
	leave := func() { h.running.Add(-1) }
	if h.before != nil {
		if err := h.before(op, n); err != nil {
			leave()
			return nil, err
		}
	}
	return leave, nil
}

func (h *hsm) Sign(r io.Reader, d []byte, o crypto.SignerOpts) ([]byte, error) {
	leave, err := h.enter("sign")
	if err != nil {
		return nil, err
	}
	defer leave()
	if h.signWith != nil {
		return h.signWith.Sign(r, d, o)
	}
	return h.handle.Sign(r, d, o)
}

func (h *hsm) Decrypt(r io.Reader, m []byte, o crypto.DecrypterOpts) ([]byte, error) {
	leave, err := h.enter("decrypt")
	if err != nil {
		return nil, err
	}
	defer leave()
	if h.decryptWith != nil {
		return h.decryptWith.Decrypt(r, m, o)
	}
	return h.handle.Decrypt(r, m, o)
}

// afterCheck makes f act on the operations after NewClient's check only.
func afterCheck(f func(op string) error) func(string, int64) error {
	return func(op string, n int64) error {
		if n <= checkOps {
			return nil
		}
		return f(op)
	}
}

// jweKeysClient is a client of srv whose merchant key is k.
func jweKeysClient(t *testing.T, srv *recorder, k *hsm, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, srv.URL, append([]Option{WithJWEKeys(testKID, k, k, &serviceRSA().PublicKey)}, opts...)...)
}

// A signer or decrypter that fails, or a signer that blocks until the
// context ends, gives a *JOSEError matching ErrKeyOperation that names the
// step, at once; a failed signer sends nothing, and no failure is retried.
func TestJWEKeysFailures(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: string(svcReply{}.seal(t, jweReply))})
	locked := errors.New("CKR_USER_NOT_LOGGED_IN")
	retry := WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond})
	ctx := context.Background()

	kinds := &kindObserver{}
	c := jweKeysClient(t, srv, &hsm{handle: handle{merchantRSA()}, before: afterCheck(func(op string) error {
		if op == "sign" {
			return locked
		}
		return nil
	})}, retry)
	c.observer = kinds
	_, err := c.CreateSession(ctx, baseSession())
	require.Equal(t, []ErrorKind{ErrorKindJOSE}, kinds.kinds, "a sign failure is the key's, not the reply's")
	var je *JOSEError
	require.ErrorAs(t, err, &je)
	require.ErrorIs(t, err, ErrKeyOperation)
	require.ErrorIs(t, err, locked)
	require.Contains(t, err.Error(), "sign request")
	require.Zero(t, srv.count.Load(), "nothing sent")

	block := make(chan struct{})
	defer close(block)
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = jweKeysClient(t, srv, &hsm{handle: handle{merchantRSA()}, before: afterCheck(func(string) error {
		<-block
		return nil
	})}, retry).CreateSession(cctx, baseSession())
	require.ErrorIs(t, err, ErrKeyOperation)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Contains(t, err.Error(), "sign request: the key did not answer before the context ended")
	require.Zero(t, srv.count.Load(), "nothing sent")

	kinds.kinds = nil
	c = jweKeysClient(t, srv, &hsm{handle: handle{merchantRSA()}, before: afterCheck(func(op string) error {
		if op == "decrypt" {
			return locked
		}
		return nil
	})}, retry)
	c.observer = kinds
	_, err = c.CreateSession(ctx, baseSession())
	// The reply could not be opened after the request was sent: the settle
	// step reads the order (whose reply the locked key cannot open either)
	// as a request of the same operation, and the write is not sent again.
	require.Equal(t, []ErrorKind{ErrorKindDecode}, kinds.kinds)
	require.ErrorIs(t, err, ErrKeyOperation)
	require.ErrorIs(t, err, locked)
	require.Contains(t, err.Error(), "decrypt reply")
	require.EqualValues(t, 2, srv.count.Load(), "the write sent once, then the order read once")
	for _, s := range []string{fmt.Sprintf("%v %+v %#v", err, err, err), err.Error()} {
		require.NotContains(t, s, merchantRSA().D.String()[:20])
		require.NotContains(t, s, secretMarker)
	}
}

// A key that panics (an HSM or KMS client's bug) does not end the process:
// the panic is recovered on the goroutine that ran the key and the call
// fails with a *JOSEError matching ErrKeyOperation that names the step; a
// panic while signing sends nothing. So in NewClient's check, and for a
// key that runs inline (*rsa.PrivateKey).
func TestJWEKeysPanicIsAnError(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: string(svcReply{}.seal(t, jweReply))})
	boom := errors.New("pkcs11: session handle freed")
	panicky := func(on string, v any) *hsm {
		return &hsm{handle: handle{merchantRSA()}, before: afterCheck(func(op string) error {
			if op == on {
				panic(v)
			}
			return nil
		})}
	}

	_, err := jweKeysClient(t, srv, panicky("sign", "index out of range [3]")).CreateSession(context.Background(), baseSession())
	require.ErrorIs(t, err, ErrKeyOperation)
	require.Contains(t, err.Error(), "checkout: create session: sign request: the key panicked: index out of range [3]")
	require.Zero(t, srv.count.Load(), "nothing sent")

	_, err = jweKeysClient(t, srv, panicky("decrypt", boom)).GetOrder(context.Background(), secretMarker)
	require.ErrorIs(t, err, ErrKeyOperation)
	require.ErrorIs(t, err, boom, "a panic with an error wraps it")
	require.Contains(t, err.Error(), "decrypt reply: the key panicked: pkcs11: session handle freed")

	_, err = NewClient(testMerchant, testKey, WithBaseURL(srv.URL), WithJWEKeys(testKID,
		&hsm{handle: handle{merchantRSA()}, before: func(string, int64) error { panic(boom) }}, handle{merchantRSA()}, &serviceRSA().PublicKey))
	require.ErrorIs(t, err, ErrInvalidOption)
	require.ErrorIs(t, err, ErrKeyOperation)
	require.ErrorIs(t, err, boom)

	for _, key := range []any{merchantRSA(), handle{merchantRSA()}} {
		out, err := keyStep(context.Background(), make(chan struct{}, 1), key, "get order", "reply: ", func() ([]byte, error) {
			panic("go-jose: nil map")
		})
		require.Nil(t, out)
		require.ErrorIs(t, err, ErrKeyOperation)
		require.EqualError(t, err, "checkout: get order: decrypt reply: the key panicked: go-jose: nil map", "%T", key)
	}
}

// A healthy HSM under a burst: with a 25 ms signer, 160 concurrent calls
// wait (within their context) for one of the 64 slots; none fails.
func TestJWEKeysBurstWaitsForASlot(t *testing.T) {
	srv := newRecorder(t, reply{status: 400, body: `{"status":"ERROR","error_code":"INVALID_REQUEST"}`})
	k := &hsm{handle: handle{merchantRSA()}, before: afterCheck(func(string) error {
		time.Sleep(25 * time.Millisecond) // the HSM's own pace
		return nil
	})}
	c := jweKeysClient(t, srv, k)
	k.peak.Store(0)
	const calls = 160
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var keyFailures, apiErrors atomic.Int64
	for i := range calls {
		wg.Go(func() {
			_, err := c.GetOrder(ctx, fmt.Sprintf("o_%d", i))
			var ae *APIError
			switch {
			case errors.Is(err, ErrKeyOperation):
				keyFailures.Add(1)
			case errors.As(err, &ae):
				apiErrors.Add(1)
			}
		})
	}
	wg.Wait()
	require.Zero(t, keyFailures.Load(), "no call fails for want of a slot")
	require.EqualValues(t, calls, apiErrors.Load(), "every call reached the service and got its reply")
	require.EqualValues(t, calls, srv.count.Load())
	require.LessOrEqual(t, k.peak.Load(), int64(maxKeyOps), "at most 64 key operations at once")
}

// A signer that hangs for good cannot pile up goroutines: 64 key
// operations run aside, the calls past them wait for a slot within their
// context (see jose.TestAside) and start none, and when the context ends
// every call fails with its error as a key-operation error, sending
// nothing.
func TestJWEKeysHungSignerIsBounded(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: "{}"})
	block := make(chan struct{})
	k := &hsm{handle: handle{merchantRSA()}, before: afterCheck(func(string) error {
		<-block
		return nil
	})}
	c := jweKeysClient(t, srv, k)
	before := runtime.NumGoroutine()
	const extra = 20
	ctx, cancel := context.WithCancel(context.Background())
	var returned atomic.Int64
	errs := make(chan error, maxKeyOps+extra)
	for range maxKeyOps + extra {
		go func() {
			_, err := c.GetOrder(ctx, "o")
			returned.Add(1)
			errs <- err
		}()
	}
	require.Eventually(t, func() bool { return k.running.Load() == maxKeyOps }, 10*time.Second, time.Millisecond)
	require.Zero(t, returned.Load(), "the calls past the bound wait, they do not fail at once")
	cancel()
	hung := 0
	for range maxKeyOps + extra {
		err := <-errs
		require.ErrorIs(t, err, ErrKeyOperation)
		require.ErrorIs(t, err, context.Canceled)
		require.Contains(t, err.Error(), "checkout: get order: sign request: ")
		if strings.Contains(err.Error(), "the key did not answer") {
			hung++
		}
	}
	require.Equal(t, maxKeyOps, hung, "the others waited for a slot, or found the context ended")
	require.EqualValues(t, checkOps+maxKeyOps, k.ops.Load(), "no key operation beyond the bound was started")
	require.Len(t, c.jwe.slots, maxKeyOps)
	require.LessOrEqual(t, runtime.NumGoroutine()-before, maxKeyOps+2, "no goroutine beyond the bound")
	require.Zero(t, srv.count.Load(), "nothing sent")
	close(block)
	require.Eventually(t, func() bool { return len(c.jwe.slots) == 0 }, 5*time.Second, time.Millisecond, "the slots come back once the signer returns")
}

// Keys of different pairs are found in NewClient, before anything is
// sent: a signer and a decrypter whose public keys differ, a signer or a
// decrypter that works with another key than its Public names, and a key
// that fails the check.
func TestWithJWEKeysChecksThePair(t *testing.T) {
	a, b := merchantRSA(), strangerRSA()
	locked := errors.New("CKR_USER_NOT_LOGGED_IN")
	cases := map[string]struct {
		signer    crypto.Signer
		decrypter crypto.Decrypter
		kind      error
		want      string
	}{
		"two key pairs":             {handle{a}, handle{b}, ErrKey, "the signer and the decrypter are of different key pairs"},
		"two raw keys":              {a, b, ErrKey, "different key pairs"},
		"signer signs with another": {&hsm{handle: handle{a}, signWith: b}, handle{a}, ErrKey, "the signer's test signature does not verify with its public key"},
		"decrypter opens another":   {handle{a}, &hsm{handle: handle{a}, decryptWith: b}, ErrKey, "the decrypter cannot open a secret encrypted to its public key"},
		"signer fails": {&hsm{handle: handle{a}, before: func(string, int64) error { return locked }}, handle{a},
			ErrKeyOperation, "signing a test digest: the key failed: CKR_USER_NOT_LOGGED_IN"},
		"decrypter fails": {handle{a}, &hsm{handle: handle{a}, before: func(string, int64) error { return locked }},
			ErrKeyOperation, "decrypting a test secret: the key failed: CKR_USER_NOT_LOGGED_IN"},
	}
	for name, tc := range cases {
		_, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
			WithJWEKeys(testKID, tc.signer, tc.decrypter, &serviceRSA().PublicKey))
		require.ErrorIs(t, err, ErrInvalidOption, name)
		require.ErrorIs(t, err, tc.kind, name)
		require.ErrorContains(t, err, "checkout: new client: invalid option: JWE: ", name)
		require.ErrorContains(t, err, tc.want, name)
		require.NotContains(t, err.Error(), a.D.String()[:20], name)
	}
	k := &hsm{handle: handle{a}}
	_, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"), WithJWEKeys(testKID, k, k, &serviceRSA().PublicKey))
	require.NoError(t, err)
	require.EqualValues(t, checkOps, k.ops.Load(), "one signature and one decryption")
}

// Each signature is verified with the signer's public key before anything
// is sent: a signer that turns to another key, or returns a wrong
// signature, after NewClient's check fails the call with ErrKeyOperation.
func TestJWEKeysWrongSignatureIsNotSent(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: string(svcReply{}.seal(t, jweReply))})
	k := &hsm{handle: handle{merchantRSA()}}
	c := jweKeysClient(t, srv, k)
	k.signWith = strangerRSA() // the HSM's slot now holds another key
	_, err := c.CreateSession(context.Background(), baseSession())
	require.ErrorIs(t, err, ErrKeyOperation)
	require.EqualError(t, err, "checkout: create session: sign request: the signature the key made does not verify with its public key")
	require.Zero(t, srv.count.Load(), "nothing sent")

	k.signWith = nil
	req := baseSession()
	req.OrderID = secretMarker // the order the reply is about
	_, err = c.CreateSession(context.Background(), req)
	require.NoError(t, err)
	require.EqualValues(t, 1, srv.count.Load())
}

// The key behind the interfaces only: the client works as with the raw
// key, and prints no key material.
func TestWithJWEKeys(t *testing.T) {
	rt := &sealedTransport{reply: svcReply{}.seal(t, jweReply)}
	h := handle{merchantRSA()}
	c := newTestClient(t, "https://api.example.com", WithHTTPClient(&http.Client{Transport: rt}),
		WithJWEKeys(testKID, h, h, &serviceRSA().PublicKey))
	req := baseSession()
	req.OrderID = secretMarker // the order the reply is about
	s, err := c.CreateSession(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, jweReply, string(s.Raw))
	require.Contains(t, fmt.Sprint(c.jwe), "RSA-2048 [REDACTED]")

	_, err = NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithJWEKeys(testKID, h, nil, &serviceRSA().PublicKey))
	require.ErrorIs(t, err, ErrInvalidOption)
	_, err = NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithJWEKeys(testKID, handle{genRSA(1024)}, h, &serviceRSA().PublicKey))
	require.ErrorIs(t, err, ErrInvalidOption)
}

// kindObserver keeps the error kind of each operation.
type kindObserver struct {
	nopObserver
	kinds []ErrorKind
}

func (k *kindObserver) EndOperation(_ context.Context, _ Operation, r OperationResult) {
	k.kinds = append(k.kinds, r.ErrorKind)
}
