package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/testio"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A reply over the 16 MiB cap is refused without its buffer growing past
// the cap plus one byte: in all, under twice the cap is allocated, whether
// the length is announced or not (chunked).
func TestReadBodyAllocationAtCap(t *testing.T) {
	big := bytes.Repeat([]byte("x"), maxResponseBody+1<<20)
	for _, length := range []int64{-1, int64(len(big))} {
		var err error
		n := allocated(func() {
			_, err = readBody(&http.Response{ContentLength: length, Body: io.NopCloser(bytes.NewReader(big))})
		})
		require.ErrorContains(t, err, "larger than")
		require.Less(t, n, uint64(2*maxResponseBody), "length %d: %d bytes allocated", length, n)
	}
	// An accepted body just under the cap, length unknown.
	ok := big[:maxResponseBody-1<<20]
	var got []byte
	n := allocated(func() { got, _ = readBody(&http.Response{ContentLength: -1, Body: io.NopCloser(bytes.NewReader(ok))}) })
	require.Equal(t, len(ok), len(got))
	require.Less(t, n, uint64(2*maxResponseBody), "%d bytes allocated", n)
	require.Less(t, cap(got), maxResponseBody+2)
}

// The one decode: lenient on a value of the wrong type, strict on shape.
func TestDecodeIntoLenient(t *testing.T) {
	var m struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	require.NoError(t, anyReply{&m}.decode([]byte(`{"a":"text","b":"kept"}`)))
	require.Equal(t, "kept", m.B)
	require.Zero(t, m.A)
	require.NoError(t, anyReply{&m}.decode(nil), "an empty body decodes nothing for Do")
	require.Error(t, anyReply{&m}.decode([]byte(`{"a":`)))
	_, err := decodeReply[OrderStatus]([]byte(`[]`))
	require.True(t, strings.Contains(err.Error(), "a JSON array, not a JSON object"), err.Error())
}

// ---- the /v4 calls through the client's one request path ----

// v4Replies are replies of the three calls whose exact bytes matter.
const (
	v4StatusReply = `{"order_id":"o/1" ,"status":"CHARGED","status_id":21,"amount":"10.00","customer_email":"` + secretMarker + `","refunded":false}`
	v4RefundReply = `{"order_id":"o/1","status":"CHARGED","amount":"10.00","refunded":true,"amount_refunded":"10.00",` +
		`"refunds":[{"unique_request_id":"rf-1","status":"PENDING","amount":"10.00","sent_to_gateway":false}]}`
)

func jweClient(t testing.TB, base string, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, base, append([]Option{WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey)}, opts...)...)
}

// sealedReply is a 200 reply sealed by the service with go-jose alone.
func sealedReply(t testing.TB, o svcReply, payload string) reply {
	return reply{status: 200, body: string(o.seal(t, payload))}
}

// The three calls, sealed by the client and opened by go-jose alone as the
// service would; the service's replies, sealed by go-jose alone, are
// accepted and decoded into the same types as Basic mode, Raw and
// SDKPayload byte for byte.
func TestJWECallsRoundTripWithIndependentCode(t *testing.T) {
	rec := newRecorder(t,
		sealedReply(t, svcReply{}, jweReply),
		sealedReply(t, svcReply{jwtForm: true, alg: gojose.RSA_OAEP}, v4StatusReply),
		sealedReply(t, svcReply{compactJWS: true}, v4RefundReply))
	c := jweClient(t, rec.URL)
	ctx := context.Background()

	req := baseSession()
	req.OrderID = secretMarker // the order the reply is about
	req.Description = "😀 <b>&</b> வணக்கம்"
	sess, err := c.CreateSession(ctx, req)
	require.NoError(t, err)
	st, err := c.GetOrder(ctx, "o/1")
	require.NoError(t, err)
	rf, err := c.Refund(ctx, "o/1", &RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.NoError(t, err)

	// Replies: byte for byte, decoded as in Basic mode.
	require.Equal(t, jweReply, string(sess.Raw))
	i := strings.Index(jweReply, `"sdk_payload":`) + len(`"sdk_payload":`)
	require.Equal(t, jweReply[i:len(jweReply)-1], string(sess.SDKPayload))
	require.Equal(t, "ordeh_1", sess.ID)
	require.Equal(t, secretMarker, sess.OrderID)
	require.Equal(t, v4StatusReply, string(st.Raw))
	require.EqualValues(t, "CHARGED", st.Status)
	require.Equal(t, Amount("10.00"), st.Amount)
	require.Equal(t, v4RefundReply, string(rf.Raw))
	require.True(t, bool(rf.Refunded))
	require.Len(t, rf.Refunds, 1)
	require.Equal(t, "rf-1", rf.Refunds[0].UniqueRequestID)

	// Requests: what the service would read.
	basicBody, err := req.encode(DefaultNamespace)
	require.NoError(t, err)
	all := rec.all()
	require.Len(t, all, 3)
	want := []struct {
		uri, payload string
		version      bool
	}{
		{"/v4/session", string(basicBody), false},
		{"/v4/order-status", `{"order_id":"o/1"}`, true},
		{"/v4/orders/o%2F1/refunds", `{"unique_request_id":"rf-1","amount":"10.00"}`, true},
	}
	for i, w := range want {
		got := all[i]
		require.Equal(t, "POST", got.Method, w.uri)
		require.Equal(t, w.uri, got.RequestURI)
		require.Empty(t, got.Header.Values("Authorization"), "the signature authenticates a sealed call")
		require.Equal(t, []string{testMerchant}, got.Header.Values("X-Merchantid"))
		require.Equal(t, []string{"application/json"}, got.Header.Values("Content-Type"))
		if w.version {
			require.Equal(t, []string{DefaultAPIVersion}, got.Header.Values("Version"), w.uri)
		} else {
			require.Empty(t, got.Header.Values("Version"), w.uri)
		}
		require.NotContains(t, string(got.Body), "order_dummy_1")
		require.NotContains(t, string(got.Body), "rf-1")
		payload, jweHdr, jwsHdr := svcOpen(t, got.Body)
		require.Equal(t, w.payload, string(payload), "the JSON sealed, byte for byte")
		require.Equal(t, `{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"`+testKID+`"}`, jweHdr)
		require.Equal(t, `{"alg":"RS256","kid":"`+testKID+`"}`, jwsHdr)
	}
}

// Calls without a /v4 form keep Basic authentication in the JWE+JWS mode.
func TestJWEModeLeavesOtherCallsBasic(t *testing.T) {
	rec := newRecorder(t, reply{status: 200, body: `{"status":"CREATED","order_id":"HD-1707740261"}`})
	_, err := jweClient(t, rec.URL).CreateOrder(context.Background(), fullOrder())
	require.NoError(t, err)
	got := rec.last(t)
	require.Equal(t, "/orders", got.RequestURI)
	require.Equal(t, []string{testAuth}, got.Header.Values("Authorization"))
	require.Equal(t, []string{"application/x-www-form-urlencoded"}, got.Header.Values("Content-Type"))
}

// runV4 makes each of the three calls against a server answering with rep
// and returns their errors and whether a value came back.
func runV4(t *testing.T, rep reply, opts ...Option) map[string]error {
	t.Helper()
	rec := newRecorder(t, rep)
	c := jweClient(t, rec.URL, opts...)
	ctx := context.Background()
	errs := map[string]error{}
	sess, err := c.CreateSession(ctx, baseSession())
	require.True(t, sess == nil || err == nil)
	errs["create session"] = err
	st, err := c.GetOrder(ctx, "o/1")
	require.True(t, st == nil || err == nil)
	errs["get order"] = err
	st, err = c.Refund(ctx, "o/1", &RefundRequest{UniqueRequestID: "rf-1", Amount: "10.00"})
	require.True(t, st == nil || err == nil)
	errs["refund"] = err
	return errs
}

// Tampered and forged replies fail closed on every call, with a
// *JOSEError naming the call and never quoting the reply.
func TestJWECallsFailClosed(t *testing.T) {
	good := svcReply{}.seal(t, jweReply)
	tests := []struct {
		name string
		body []byte
		want error
	}{
		{"tampered tag", flipPart(t, good, "tag"), ErrDecrypt},
		{"tampered ciphertext", flipPart(t, good, "encryptedPayload"), ErrDecrypt},
		{"tampered JWS payload", svcEncrypt(t, svcReply{}, tamperedJWS(t, "payload")), ErrSignature},
		{"tampered JWS signature", svcEncrypt(t, svcReply{}, tamperedJWS(t, "signature")), ErrSignature},
		{"signed by another key", svcReply{sigKey: strangerRSA()}.seal(t, jweReply), ErrSignature},
		{"alg none", svcEncrypt(t, svcReply{}, noneJWS(t, false)), ErrSignature},
		{"unsigned content", svcReply{inner: []byte(jweReply)}.seal(t, jweReply), ErrSignature},
		{"encrypted to another key", svcReply{recipient: &strangerRSA().PublicKey}.seal(t, jweReply), ErrDecrypt},
		{"JWE kid of another key", svcReply{jweKID: strp("key_other")}.seal(t, jweReply), ErrDecrypt},
		{"plain JSON", []byte(jweReply), ErrEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for op, err := range runV4(t, reply{status: 200, body: string(tt.body)}) {
				require.ErrorIs(t, err, tt.want, op)
				var je *JOSEError
				require.ErrorAs(t, err, &je, op)
				require.Equal(t, op, je.Op)
				require.True(t, strings.HasPrefix(err.Error(), "checkout: "+op+": "), err.Error())
				require.Equal(t, 1, strings.Count(err.Error(), "checkout: "), "the call named once: %s", err)
				require.Contains(t, err.Error(), "reply: ")
				// A write answered with a reply that cannot be trusted may
				// have taken effect, and says so.
				var te *TransportError
				require.Equal(t, op != "get order", errors.As(err, &te) && te.MaybeDelivered, err.Error())
				require.NotContains(t, err.Error(), secretMarker)
				require.NotContains(t, err.Error(), "CHARGED")
			}
		})
	}
}

// Error replies decode into *APIError: plain JSON as the service writes
// them, a sealed one once opened, and one that does not open by its HTTP
// status alone.
func TestJWEErrorReplies(t *testing.T) {
	plain := `{"status":"ERROR","error_code":"INVALID_REQUEST","error_message":"amount is wrong","status_id":-1}`
	for name, tc := range map[string]struct {
		rep          reply
		is           error
		code, status string
	}{
		"plain":            {reply{status: 400, body: plain}, ErrInvalidRequest, "INVALID_REQUEST", "ERROR"},
		"sealed":           {reply{status: 400, body: string(svcReply{}.seal(t, plain))}, ErrInvalidRequest, "INVALID_REQUEST", "ERROR"},
		"sealed, forged":   {reply{status: 401, body: string(svcReply{sigKey: strangerRSA()}.seal(t, plain))}, ErrUnauthorized, "", ""},
		"sealed, tampered": {reply{status: 403, body: string(flipPart(t, svcReply{}.seal(t, plain), "tag"))}, ErrForbidden, "", ""},
	} {
		for op, err := range runV4(t, tc.rep) {
			var ae *APIError
			require.ErrorAs(t, err, &ae, "%s %s", name, op)
			require.ErrorIs(t, err, tc.is, name)
			require.Equal(t, tc.rep.status, ae.HTTPStatus)
			require.Equal(t, op, ae.Operation)
			require.Equal(t, tc.code, ae.ErrorCode, name)
			require.Equal(t, tc.status, ae.Status, name)
		}
	}
}

// The order status read stays idempotent in the JWE+JWS mode: a 503 is
// retried with the same sealed body, and the second reply is opened.
func TestJWEGetOrderRetries(t *testing.T) {
	rec := newRecorder(t, reply{status: 503, body: `{"status":"ERROR"}`}, sealedReply(t, svcReply{}, v4StatusReply))
	st, err := jweClient(t, rec.URL).GetOrder(context.Background(), "o/1")
	require.NoError(t, err)
	require.Equal(t, v4StatusReply, string(st.Raw))
	all := rec.all()
	require.Len(t, all, 2)
	require.Equal(t, string(all[0].Body), string(all[1].Body))
	p, _, _ := svcOpen(t, all[1].Body)
	require.Equal(t, `{"order_id":"o/1"}`, string(p))
}

// A client without WithJWE refuses a sealed 2xx reply instead of decoding
// it as an empty order, and says what to configure.
func TestBasicModeRefusesSealedReply(t *testing.T) {
	for name, body := range map[string][]byte{
		"envelope": svcReply{}.seal(t, v4StatusReply),
		"JWT form": svcReply{jwtForm: true}.seal(t, v4StatusReply),
	} {
		rec := newRecorder(t, reply{status: 200, body: string(body)})
		st, err := newTestClient(t, rec.URL).GetOrder(context.Background(), "o/1")
		require.Nil(t, st, name)
		require.ErrorIs(t, err, ErrEnvelope, name)
		require.ErrorContains(t, err, "checkout: get order: reply: the reply is encrypted")
		require.ErrorContains(t, err, "WithJWE")
		require.Equal(t, "/orders/o%2F1", rec.last(t).RequestURI)
	}
	// A plain reply naming the keys in a value is still plain.
	rec := newRecorder(t, reply{status: 200, body: `{"order_id":"o","description":"\"JWT\" and \"encryptedPayload\""}`})
	st, err := newTestClient(t, rec.URL).GetOrder(context.Background(), "o")
	require.NoError(t, err)
	require.Equal(t, "o", st.OrderID)
}

// The debug log of the JWE+JWS calls names method, host, /v4 path, status
// and attempt, and never holds a body (sealed or not), a key, a header
// value or the API key; their errors hold none of those either.
func TestJWEDebugLogAndErrorsHoldNoSecrets(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var sealedBodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		k := n
		sealedBodies = append(sealedBodies, string(body))
		mu.Unlock()
		var out []byte
		switch k {
		case 1: // a session, signed by the service
			out = svcReply{}.seal(t, strings.Replace(jweReply, `"status":"NEW"`, `"status":"NEW","note":"resp-marker-session"`, 1))
		case 2: // an order status signed by another key
			out = svcReply{sigKey: strangerRSA()}.seal(t, `{"order_id":"resp-marker-forged","status":"CHARGED"}`)
		default: // a refused refund, in plain JSON
			w.WriteHeader(400)
			out = []byte(`{"status":"ERROR","error_message":"resp-marker-refund-refused"}`)
		}
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	var buf testio.SyncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := jweClient(t, srv.URL, WithLogger(logger))
	ctx := context.Background()
	sess := baseSession()
	sess.OrderID, sess.CustomerEmail = secretMarker, "body-marker@example.com"

	_, err1 := c.CreateSession(ctx, sess, WithHeader("X-Custom", "hdr-marker"))
	require.NoError(t, err1)
	_, err2 := c.GetOrder(ctx, "o")
	require.ErrorIs(t, err2, ErrSignature)
	_, err3 := c.Refund(ctx, "o", &RefundRequest{UniqueRequestID: "body-marker-refund", Amount: "1.00"})
	require.ErrorIs(t, err3, ErrInvalidRequest)

	out := buf.String()
	forbidden := []string{testKey, "Basic", "Authorization", testMerchant, "body-marker", "hdr-marker", "resp-marker",
		secretMarker, "sdk_payload", "encryptedPayload", "eyJ", merchantRSA().D.String()[:24], merchantRSA().Primes[0].String()[:24]}
	mu.Lock()
	for _, b := range sealedBodies {
		var env map[string]string
		require.NoError(t, json.Unmarshal([]byte(b), &env))
		forbidden = append(forbidden, env["encryptedKey"][:24], env["encryptedPayload"][:16], env["tag"])
	}
	mu.Unlock()
	for _, s := range forbidden {
		require.NotContains(t, out, s)
		require.NotContains(t, err2.Error(), s)
		require.NotContains(t, fmt.Sprintf("%v %+v %#v", err2, err2, err2), s)
	}
	require.NotContains(t, err3.Error(), testKey)
	host := strings.TrimPrefix(srv.URL, "http://")
	require.Equal(t, []logRecord{
		{host, "POST", "/v4/session", 200, 1, false},
		{host, "POST", "/v4/order-status", 200, 1, false},
		{host, "POST", "/v4/orders/o/refunds", 400, 1, false},
	}, parseLog(t, out))
}

// newConnCountingServer starts a test server running h and counts the TCP
// connections clients open to it (Server.Config.ConnState).
func newConnCountingServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	conns := new(atomic.Int64)
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, conns
}

// createSessions runs workers goroutines making calls CreateSession calls
// each, and requires every call to succeed.
func createSessions(t *testing.T, c *Client, workers, calls int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				if _, err := c.CreateSession(context.Background(), baseSession()); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// 64 goroutines making 20 calls each reuse their connections: the default
// transport keeps enough idle connections per host, and every body is read
// to its end and closed.
func TestConnectionReuse(t *testing.T) {
	const workers, calls = 64, 20
	var requests atomic.Int64
	srv, conns := newConnCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"NEW","id":"ordeh_1","order_id":"order_dummy_1","sdk_payload":{"requestId":"r","payload":{"a":"b"}}}`))
	})
	c := newTestClient(t, srv.URL)

	createSessions(t, c, workers, calls)
	require.EqualValues(t, workers*calls, requests.Load())
	// Reused: about one connection per worker, not one per request. A
	// connection dropped under load is replaced, so a few more may open.
	require.LessOrEqual(t, conns.Load(), int64(workers+8), "opened %d connections for %d workers", conns.Load(), workers)
}

// Error replies, retried replies and successes alike leave their connection
// reusable: their bodies are read to the end and closed.
func TestErrorBodiesAreDrained(t *testing.T) {
	var n atomic.Int64
	big := `{"status":"ERROR","error_message":"` + strings.Repeat("x", 3000) + `"}`
	srv, conns := newConnCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 4 {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(big))
		case 2:
			w.Write([]byte(`{"order_id":"o","status":"CHARGED"}`))
		case 3:
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(big))
		default:
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"status":"error","error_code":"access_denied"}`))
		}
	})
	c := newTestClient(t, srv.URL)
	for range 30 {
		_, _ = c.GetOrder(context.Background(), "o")
	}
	// Drained bodies keep the connection reusable: a call or two may dial
	// anew while the transport is still taking the last one back (a race of
	// net/http's under load), never one per call.
	require.LessOrEqual(t, conns.Load(), int64(3), "the calls reused their connection")
	require.Greater(t, n.Load(), int64(30))
}
