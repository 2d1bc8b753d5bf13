package checkout

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	_, _ = w.Write([]byte(rep.body))
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

// problemPaths returns the paths of ps, in order.
func problemPaths(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return out
}

// requireLintPaths asserts that r passes Validate and that its advice has
// exactly the paths want, in order, each with a message.
func requireLintPaths[P interface {
	Validate() error
	Lint() []Problem
}](t testing.TB, r P, want []string) {
	t.Helper()
	require.NoError(t, r.Validate(), "advice only")
	lint := r.Lint()
	for _, p := range lint {
		require.NotEmpty(t, p.Message, "advice at %q", p.Path)
	}
	require.Equal(t, want, problemPaths(lint), "%v", lint)
}

// requestCase is one row of a request table: a change to a good request
// and the problem paths it must then give, in order.
type requestCase[R any] struct {
	name   string
	mutate func(r *R)
	paths  []string
}

// request is a request type's pointer with its checks.
type request[R any] interface {
	*R
	Validate() error
	Lint() []Problem
}

// runRequestCases runs each case in a subtest on a fresh request from good,
// checking it with check (validatePaths or requireLintPaths).
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
		if n, ok := v.(json.Number); ok && ownsSessionKey(k, DefaultNamespace) {
			m[k] = n.String()
		}
	}
	if old, ok := m[keyMandateMaxOld]; ok {
		if _, both := m[keyMandateMax]; !both {
			delete(m, keyMandateMaxOld)
			m[keyMandateMax] = old
		}
	}
	if ps, ok := m[keyProductSummary].(string); ok {
		var summary any
		require.NoError(t, json.Unmarshal([]byte(ps), &summary))
		m[keyProductSummary] = summary
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
