package checkout

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

const (
	testMerchant = "merchant_42"
	testKey      = "sk_test_8f2c1d0e7b6a5f4e3d2c1b0a"
	// testAuth is "Basic " + base64(testKey + ":").
	testAuth = "Basic c2tfdGVzdF84ZjJjMWQwZTdiNmE1ZjRlM2QyYzFiMGE6"
)

// fastRetry retries without noticeable waits.
var fastRetry = RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 5 * time.Millisecond}

// newTestClient returns a client for base with quick retries.
func newTestClient(t testing.TB, base string, opts ...Option) *Client {
	t.Helper()
	c, err := NewClient(testMerchant, testKey, append([]Option{WithBaseURL(base), WithRetry(fastRetry)}, opts...)...)
	require.NoError(t, err)
	return c
}

// recorded is one request as the test server saw it.
type recorded struct {
	Method     string
	RequestURI string
	Header     http.Header
	Body       []byte
	At         time.Time // when the server saw it
}

// recorder is an httptest server that records requests and replies with
// the scripted responses in order (the last one repeats).
type recorder struct {
	*httptest.Server
	mu       sync.Mutex
	requests []recorded
	replies  []reply
	count    atomic.Int64
}

type reply struct {
	status int
	header map[string]string
	body   string
	delay  time.Duration
}

func newRecorder(t testing.TB, replies ...reply) *recorder {
	t.Helper()
	r := &recorder{replies: replies}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) serve(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	body := new(bytes.Buffer)
	_, _ = body.ReadFrom(req.Body)
	n := int(r.count.Add(1))
	r.mu.Lock()
	r.requests = append(r.requests, recorded{req.Method, req.RequestURI, req.Header.Clone(), body.Bytes(), at})
	rep := reply{status: 200, body: "{}"}
	if len(r.replies) > 0 {
		rep = r.replies[min(n, len(r.replies))-1]
	}
	r.mu.Unlock()
	if rep.delay > 0 {
		select {
		case <-time.After(rep.delay):
		case <-req.Context().Done():
			return
		}
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(rep.status)
	_, _ = w.Write([]byte(strings.ReplaceAll(rep.body, "$ORDER_ID", requestOrderID(req, body.Bytes()))))
}

// requestOrderID is the order a request is about, for a canned reply that
// must name it ("$ORDER_ID"): its JSON or form order_id, else the id in
// its /orders/{order_id} path.
func requestOrderID(req *http.Request, body []byte) string {
	var j struct {
		OrderID string `json:"order_id"`
	}
	if json.Unmarshal(body, &j) == nil && j.OrderID != "" {
		return j.OrderID
	}
	if f, err := url.ParseQuery(string(body)); err == nil && f.Get("order_id") != "" {
		return f.Get("order_id")
	}
	rest, _ := strings.CutPrefix(req.URL.Path, "/orders/")
	id, _, _ := strings.Cut(rest, "/")
	id, _ = url.PathUnescape(id)
	return id
}

func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.requests...)
}

func (r *recorder) last(t testing.TB) recorded {
	t.Helper()
	all := r.all()
	require.NotEmpty(t, all, "the server saw no request")
	return all[len(all)-1]
}

// gap is the time between the server's first and second request.
func (r *recorder) gap(t testing.TB) time.Duration {
	t.Helper()
	all := r.all()
	require.GreaterOrEqual(t, len(all), 2, "the server saw %d requests", len(all))
	return all[1].At.Sub(all[0].At)
}

// requireProblemPaths asserts that err is a *ValidationError whose problems
// have exactly the paths want, in order, each with a message; for a nil
// want, that err is nil.
func requireProblemPaths(t testing.TB, err error, want []string) {
	t.Helper()
	if want == nil {
		require.NoError(t, err)
		return
	}
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	var got []string
	for _, p := range ve.Problems {
		got = append(got, p.Path)
		require.NotEmpty(t, p.Message, "problem at %q", p.Path)
	}
	require.Equal(t, want, got)
	require.NotContains(t, ve.Error(), "\n")
}

// replyingClient returns a test client and its server, which answers every
// request with 200 and body.
func replyingClient(t testing.TB, body string, opts ...Option) (*Client, *recorder) {
	t.Helper()
	srv := newRecorder(t, reply{status: 200, body: body})
	return newTestClient(t, srv.URL, opts...), srv
}

// requestCase is one row of a request table: a change to a good request
// and the problem paths it must then give, in order.
type requestCase[R any] struct {
	name   string
	mutate func(r *R)
	paths  []string
}

// request is a request type's pointer with its check.
type request[R any] interface {
	*R
	Validate() error
}

// runRequestCases runs each case in a subtest on a fresh request from good,
// checking it with check (validatePaths).
func runRequestCases[R any, P request[R]](t *testing.T, good func() P, cases []requestCase[R], check func(testing.TB, P, []string)) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := good()
			tc.mutate(r)
			check(t, r, tc.paths)
		})
	}
}

// validatePaths asserts that Validate reports exactly the paths want.
func validatePaths[P interface{ Validate() error }](t testing.TB, r P, want []string) {
	t.Helper()
	requireProblemPaths(t, r.Validate(), want)
}

// gockHeaders are the headers every call of a gock test client sends
// (no options), with contentType and extra.
func gockHeaders(contentType string, extra map[string]string) map[string]string {
	return sentHeaders("checkout-go/"+SDKVersion, contentType, extra)
}

// sentHeaders are the headers every call of a test client with user agent
// ua sends, with contentType and extra.
func sentHeaders(ua, contentType string, extra map[string]string) map[string]string {
	h := map[string]string{
		"Authorization": testAuth,
		"X-Merchantid":  testMerchant,
		"Accept":        "application/json",
		"User-Agent":    ua,
	}
	if contentType != "" {
		h["Content-Type"] = contentType
	}
	for k, v := range extra {
		h[k] = v
	}
	return h
}

// sessionMeaning is a session body reduced to what it means to the
// service: typed text keys given as JSON numbers are the same text, the
// older mandate_max_amount is mandate.max_amount (when that is absent), and
// product_summary is compared as the array its text holds. Bodies the
// service publishes and bodies the client writes are compared so.
func sessionMeaning(t testing.TB, body []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	for k, v := range m {
		if n, ok := v.(json.Number); ok && sessionKeys()[k] {
			m[k] = n.String()
		}
	}
	if old, ok := m["mandate_max_amount"]; ok {
		if _, both := m["mandate.max_amount"]; !both {
			delete(m, "mandate_max_amount")
			m["mandate.max_amount"] = old
		}
	}
	if ps, ok := m["product_summary"].(string); ok {
		var summary any
		require.NoError(t, json.Unmarshal([]byte(ps), &summary))
		m["product_summary"] = summary
	}
	// An empty options list means no options: the SDK leaves it out.
	if pf, ok := m["payment_filter"].(map[string]any); ok {
		if opts, ok := pf["options"].([]any); ok && len(opts) == 0 {
			delete(pf, "options")
		}
	}
	return m
}

// requireSameSession checks that two session bodies mean the same to the
// service (see sessionMeaning).
func requireSameSession(t testing.TB, want, got []byte, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, sessionMeaning(t, want), sessionMeaning(t, got), msgAndArgs...)
}

// The fixtures of the JWE+JWS tests: keys, replies, and the service itself
// played by go-jose alone, so that what the SDK seals is read, and what it
// opens is written, by code that is none of the SDK's.

// Keys are generated once per test binary (slow under -race).
var (
	merchantRSA = sync.OnceValue(func() *rsa.PrivateKey { return genRSA(2048) })
	serviceRSA  = sync.OnceValue(func() *rsa.PrivateKey { return genRSA(2048) })
	strangerRSA = sync.OnceValue(func() *rsa.PrivateKey { return genRSA(2048) })
)

func genRSA(bits int) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		panic(err)
	}
	return k
}

const testKID = "key_222cdef5c98347cc967d190c6e2766a3"

// secretMarker sits in every plaintext the tests seal: no error may show it.
const secretMarker = "ord_secret_ஆ_marker"

// jweReply is a reply whose exact bytes matter: odd spacing, escapes and a
// nested sdk_payload that must come out byte for byte.
const jweReply = `{"status":"NEW" ,"id":"ordeh_1","order_id":"` + secretMarker + `",` +
	`"sdk_payload":{"requestId":"af2f6664","payload":{"amount":"1.0","note":"\u00e9 😀 வணக்கம்","n":1.50}}}`

func testJWE(t testing.TB) *jweConfig {
	t.Helper()
	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey))
	require.NoError(t, err)
	require.NotNil(t, c.jwe)
	return c.jwe
}

// ---- the service, played by go-jose alone (none of the SDK's code) ----

// svcReply says how the independent code seals a reply.
type svcReply struct {
	alg        gojose.KeyAlgorithm // default RSA-OAEP-256
	enc        gojose.ContentEncryption
	recipient  any // default the merchant's public key
	jweKID     *string
	cty        bool // add "cty":"JWT" as the Node.js SDK does
	sigAlg     gojose.SignatureAlgorithm
	sigKey     any // default the service's private key
	jwsKID     *string
	embedJWK   bool
	compactJWS bool   // inner JWS compact instead of {"header","payload","signature"}
	inner      []byte // encrypt these bytes instead of a JWS
	jwtForm    bool   // {"JWT": "<compact>"} instead of the five-part envelope
}

func strp(s string) *string { return &s }

func (o svcReply) seal(t testing.TB, payload string) []byte {
	t.Helper()
	inner := o.inner
	if inner == nil {
		alg, key := o.sigAlg, o.sigKey
		if alg == "" {
			alg = gojose.RS256
		}
		if key == nil {
			key = serviceRSA()
		}
		so := &gojose.SignerOptions{EmbedJWK: o.embedJWK}
		kid := strp(testKID)
		if o.jwsKID != nil {
			kid = o.jwsKID
		}
		if *kid != "" {
			so = so.WithHeader("kid", *kid)
		}
		s, err := gojose.NewSigner(gojose.SigningKey{Algorithm: alg, Key: key}, so)
		require.NoError(t, err)
		jws, err := s.Sign([]byte(payload))
		require.NoError(t, err)
		compact, err := jws.CompactSerialize()
		require.NoError(t, err)
		if o.compactJWS {
			inner = []byte(compact)
		} else {
			p := strings.Split(compact, ".")
			inner, err = json.Marshal(map[string]string{"header": p[0], "payload": p[1], "signature": p[2]})
			require.NoError(t, err)
		}
	}
	return svcEncrypt(t, o, inner)
}

func svcEncrypt(t testing.TB, o svcReply, inner []byte) []byte {
	t.Helper()
	if o.alg == "" {
		o.alg = gojose.RSA_OAEP_256
	}
	if o.enc == "" {
		o.enc = gojose.A256GCM
	}
	if o.recipient == nil {
		o.recipient = &merchantRSA().PublicKey
	}
	kid := testKID
	if o.jweKID != nil {
		kid = *o.jweKID
	}
	eo := &gojose.EncrypterOptions{}
	if o.cty {
		eo = eo.WithContentType("JWT")
	}
	e, err := gojose.NewEncrypter(o.enc, gojose.Recipient{Algorithm: o.alg, Key: o.recipient, KeyID: kid}, eo)
	require.NoError(t, err)
	obj, err := e.Encrypt(inner)
	require.NoError(t, err)
	compact, err := obj.CompactSerialize()
	require.NoError(t, err)
	var body []byte
	if o.jwtForm {
		body, err = json.Marshal(map[string]string{"JWT": compact})
	} else {
		p := strings.Split(compact, ".")
		body, err = json.Marshal(map[string]string{"header": p[0], "encryptedKey": p[1], "iv": p[2], "encryptedPayload": p[3], "tag": p[4]})
	}
	require.NoError(t, err)
	return body
}

// svcOpen opens what the SDK sends as the service would, with go-jose
// alone, and returns the payload and the two protected headers as sent.
func svcOpen(t *testing.T, body []byte) (payload []byte, jweHeader, jwsHeader string) {
	t.Helper()
	var env map[string]string
	require.NoError(t, json.Unmarshal(body, &env))
	require.Len(t, env, 5, "exactly the five envelope keys")
	parts := []string{env["header"], env["encryptedKey"], env["iv"], env["encryptedPayload"], env["tag"]}
	for _, p := range parts {
		require.NotEmpty(t, p)
		require.NotContains(t, p, "=", "base64url without padding")
		_, err := base64.RawURLEncoding.DecodeString(p)
		require.NoError(t, err)
	}
	obj, err := gojose.ParseEncryptedCompact(strings.Join(parts, "."), []gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})
	require.NoError(t, err)
	signed, err := obj.Decrypt(serviceRSA())
	require.NoError(t, err)
	var sig map[string]string
	require.NoError(t, json.Unmarshal(signed, &sig))
	require.Len(t, sig, 3, "exactly header, payload, signature")
	jws, err := gojose.ParseSignedCompact(sig["header"]+"."+sig["payload"]+"."+sig["signature"], []gojose.SignatureAlgorithm{gojose.RS256})
	require.NoError(t, err)
	payload, err = jws.Verify(&merchantRSA().PublicKey)
	require.NoError(t, err)
	h1, err := base64.RawURLEncoding.DecodeString(parts[0])
	require.NoError(t, err)
	h2, err := base64.RawURLEncoding.DecodeString(sig["header"])
	require.NoError(t, err)
	return payload, string(h1), string(h2)
}

// jsonKeys lists the top-level keys of a JSON object in their order.
func jsonKeys(t *testing.T, b []byte) []string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	_, err := d.Token()
	require.NoError(t, err)
	var keys []string
	for d.More() {
		k, err := d.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, d.Decode(&skip))
	}
	return keys
}

func svcCompact(t *testing.T) string {
	var env struct{ JWT string }
	require.NoError(t, json.Unmarshal(svcReply{jwtForm: true}.seal(t, jweReply), &env))
	return env.JWT
}

// must returns v, panicking on err: for setup that cannot fail.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// svcOpenErr is svcOpen without a testing.T, for goroutines.
func svcOpenErr(body []byte) ([]byte, error) {
	var env map[string]string
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	obj, err := gojose.ParseEncryptedCompact(env["header"]+"."+env["encryptedKey"]+"."+env["iv"]+"."+env["encryptedPayload"]+"."+env["tag"],
		[]gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})
	if err != nil {
		return nil, err
	}
	signed, err := obj.Decrypt(serviceRSA())
	if err != nil {
		return nil, err
	}
	var sig map[string]string
	if err := json.Unmarshal(signed, &sig); err != nil {
		return nil, err
	}
	jws, err := gojose.ParseSignedCompact(sig["header"]+"."+sig["payload"]+"."+sig["signature"], []gojose.SignatureAlgorithm{gojose.RS256})
	if err != nil {
		return nil, err
	}
	p, err := jws.Verify(&merchantRSA().PublicKey)
	return p, err
}
