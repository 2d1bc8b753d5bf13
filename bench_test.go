package checkout

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gojose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/paymentfilter"
	ps "github.com/payorch/checkout-go/productsummary"
)

// The CreateSession benchmarks come in pairs, the SDK beside a plain
// net/http + encoding/json client that sends the same body (with a payment
// filter and a product summary) and decodes the reply into a plain struct:
//
//	go test -run '^$' -bench 'CreateSession' -benchtime=2000x -count=3 .
//
// Over loopback the ratio swings with the machine's load; the InMemory pair
// answers from an http.RoundTripper without any network, so it shows what
// the SDK itself adds per call: validation, encoding, headers, the retry
// wrapper and decoding.

// benchSessionReply is a realistic session reply (about 1 KB).
const benchSessionReply = `{"status":"NEW","id":"ordeh_662673ccb6ac44eda5856491e153afc4","order_id":"order_dummy_1",` +
	`"payment_links":{"web":"https://sandbox.example.com/orders/ordeh_662673ccb6ac44eda5856491e153afc4/payment-page","expiry":"2023-12-30T21:46:57Z"},` +
	`"sdk_payload":{"requestId":"af2f666419a24155991764369ccaed86","service":"in.example.hyperpay","payload":{"amount":"100.0","currency":"INR",` +
	`"orderId":"order_dummy_1","merchantId":"merchant_42","clientId":"picasso","customerId":"customer_id","customerPhone":"8888899999",` +
	`"customerEmail":"asdf@gmail.com","clientAuthToken":"tkn_9e414695b9654c529c8161d1807a47cd","clientAuthTokenExpiry":"2023-12-28T13:24:57Z",` +
	`"environment":"sandbox","action":"paymentPage","returnUrl":"https://shop.example.com/return","description":"This is Payment Description.",` +
	`"firstName":"John","lastName":"Doe"},"expiry":"2023-12-30T21:46:57Z"},"order_expiry":"2023-12-30T21:46:57Z"}`

// benchRequest is the SDK's request: a payment page with a payment filter
// (wallets hidden, credit cards hidden) and a three-line product summary.
func benchRequest() *SessionRequest {
	r := baseSession()
	r.ReturnURL = "https://shop.example.com/return"
	r.Description = "This is Payment Description."
	r.FirstName, r.LastName = "John", "Doe"
	r.GatewayReferenceID = "payu_test"
	r.WebhookURL = "https://shop.example.com/webhooks"
	r.PaymentFilter = paymentfilter.New().Hide(paymentfilter.Wallet).HideCardTypes(paymentfilter.Credit)
	summary := ps.Summary{
		{ps.Image{URL: "https://shop.example.com/p/42.png", Size: 40}, ps.Space{Width: 8},
			ps.Text{Text: "Blue mug", TextSize: 16, FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "₹ 100.00", TextSize: 16}},
		{ps.Divider{Thickness: 1, Color: "#E0E0E0"}},
		{ps.Text{Text: "Delivery by Friday", TextSize: 12, Color: "#757575"}},
	}
	r.ProductSummary = &summary
	return r
}

// rawSessionBody is the same body as the plain way would write it.
type rawSessionBody struct {
	OrderID             string    `json:"order_id"`
	Amount              string    `json:"amount"`
	CustomerID          string    `json:"customer_id"`
	CustomerPhone       string    `json:"customer_phone"`
	CustomerEmail       string    `json:"customer_email"`
	PaymentPageClientID string    `json:"payment_page_client_id"`
	Action              string    `json:"action"`
	ReturnURL           string    `json:"return_url"`
	Description         string    `json:"description"`
	FirstName           string    `json:"first_name"`
	LastName            string    `json:"last_name"`
	PaymentFilter       rawFilter `json:"payment_filter"`
	ProductSummary      string    `json:"product_summary"` // the summary's JSON, as text
	GatewayReferenceID  string    `json:"metadata.SERVICE:gateway_reference_id"`
	WebhookURL          string    `json:"metadata.webhook_url"`
}

type rawFilter struct {
	AllowDefaultOptions bool        `json:"allowDefaultOptions"`
	Options             []rawOption `json:"options"`
}

type rawOption struct {
	PaymentMethodType string          `json:"paymentMethodType"`
	Enable            bool            `json:"enable"`
	CardFilters       []rawCardFilter `json:"cardFilters,omitempty"`
}

type rawCardFilter struct {
	Enable    bool     `json:"enable"`
	CardTypes []string `json:"cardTypes"`
}

// rawItem is any item of the product summary, the plain way: one struct
// with every key, empty ones left out.
type rawItem struct {
	Type      string  `json:"type"`
	Text      string  `json:"text,omitempty"`
	URL       string  `json:"url,omitempty"`
	Color     string  `json:"color,omitempty"`
	FontType  string  `json:"fontType,omitempty"`
	TextSize  float64 `json:"textSize,omitempty"`
	Size      float64 `json:"size,omitempty"`
	Width     float64 `json:"width,omitempty"`
	Weight    float64 `json:"weight,omitempty"`
	Thickness float64 `json:"thickness,omitempty"`
}

// rawRequest is benchRequest the plain way: the body without its summary,
// and the summary that goes into it as text on every call.
func rawRequest() (rawSessionBody, [][]rawItem) {
	r := baseSession()
	body := rawSessionBody{
		OrderID: r.OrderID, Amount: string(r.Amount), CustomerID: r.CustomerID, CustomerPhone: r.CustomerPhone,
		CustomerEmail: r.CustomerEmail, PaymentPageClientID: r.PaymentPageClientID, Action: string(r.Action),
		ReturnURL: "https://shop.example.com/return", Description: "This is Payment Description.",
		FirstName: "John", LastName: "Doe",
		PaymentFilter: rawFilter{AllowDefaultOptions: true, Options: []rawOption{
			{PaymentMethodType: "WALLET", Enable: false},
			{PaymentMethodType: "CARD", Enable: true, CardFilters: []rawCardFilter{{Enable: false, CardTypes: []string{"CREDIT"}}}},
		}},
		GatewayReferenceID: "payu_test", WebhookURL: "https://shop.example.com/webhooks",
	}
	summary := [][]rawItem{
		{{Type: "image", URL: "https://shop.example.com/p/42.png", Size: 40}, {Type: "space", Width: 8},
			{Type: "text", Text: "Blue mug", TextSize: 16, FontType: "bold"}, {Type: "space", Weight: 1},
			{Type: "text", Text: "₹ 100.00", TextSize: 16}},
		{{Type: "divider", Thickness: 1, Color: "#E0E0E0"}},
		{{Type: "text", Text: "Delivery by Friday", TextSize: 12, Color: "#757575"}},
	}
	return body, summary
}

type rawSessionReply struct {
	Status     string          `json:"status"`
	ID         string          `json:"id"`
	OrderID    string          `json:"order_id"`
	SDKPayload json.RawMessage `json:"sdk_payload"`
}

// cannedTransport answers every request with benchSessionReply without any
// network, after reading the request body as a transport would. With
// record set it keeps the last body it read.
type cannedTransport struct {
	record bool
	mu     sync.Mutex
	last   []byte
}

var cannedLength = strconv.Itoa(len(benchSessionReply))

func (t *cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if t.record {
			t.mu.Lock()
			t.last = body
			t.mu.Unlock()
		}
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}, "Content-Length": {cannedLength}},
		ContentLength: int64(len(benchSessionReply)),
		Body:          io.NopCloser(strings.NewReader(benchSessionReply)),
		Request:       r,
	}, nil
}

// requireSameBodies fails b unless the SDK and the plain way send the same
// JSON (key order aside, the product summary's text compared as JSON too).
func requireSameBodies(b *testing.B) {
	b.Helper()
	rt := &cannedTransport{record: true}
	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"), WithHTTPClient(&http.Client{Transport: rt}))
	require.NoError(b, err)
	_, err = c.CreateSession(context.Background(), benchRequest())
	require.NoError(b, err)
	body, summary := rawRequest()
	text, err := json.Marshal(summary)
	require.NoError(b, err)
	body.ProductSummary = string(text)
	raw, err := json.Marshal(body)
	require.NoError(b, err)
	require.Equal(b, decodeBody(b, rt.last), decodeBody(b, raw), "the SDK sends\n%s\nthe plain way\n%s", rt.last, raw)
}

// decodeBody decodes a session body with its product_summary text decoded
// as JSON too.
func decodeBody(b *testing.B, data []byte) map[string]any {
	var m map[string]any
	require.NoError(b, json.Unmarshal(data, &m))
	text, ok := m["product_summary"].(string)
	require.True(b, ok, "product_summary is sent as text")
	var summary any
	require.NoError(b, json.Unmarshal([]byte(text), &summary))
	m["product_summary"] = summary
	require.NotNil(b, m["payment_filter"])
	return m
}

func benchServer(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, benchSessionReply)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// benchSDK runs CreateSession against base, through hc when it is not nil.
func benchSDK(b *testing.B, base string, hc *http.Client) {
	requireSameBodies(b)
	opts := []Option{WithBaseURL(base)}
	if hc != nil {
		opts = append(opts, WithHTTPClient(hc))
	}
	c, err := NewClient(testMerchant, testKey, opts...)
	require.NoError(b, err)
	loopCreateSession(b, c, benchRequest())
}

// loopCreateSession is the measured loop of the SDK benchmarks: req sent
// through c, b.N times.
func loopCreateSession(b *testing.B, c *Client, req *SessionRequest) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := c.CreateSession(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.SDKPayload) == 0 {
			b.Fatal("no payload")
		}
	}
}

// benchRaw sends the same body the plain way through hc.
func benchRaw(b *testing.B, base string, hc *http.Client) {
	requireSameBodies(b)
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))
	body, summary := rawRequest()
	b.ReportAllocs()
	for b.Loop() {
		respBody := plainPost(b, hc, base+"/session", auth, plainEncode(b, &body, summary))
		var out rawSessionReply
		if err := json.Unmarshal(respBody, &out); err != nil {
			b.Fatal(err)
		}
		if len(out.SDKPayload) == 0 {
			b.Fatal("no payload")
		}
	}
}

// plainEncode is the plain way's encoding: the summary's JSON, quoted into
// body, and then body.
func plainEncode(b *testing.B, body *rawSessionBody, summary [][]rawItem) []byte {
	text, err := json.Marshal(summary)
	if err != nil {
		b.Fatal(err)
	}
	body.ProductSummary = string(text)
	data, err := json.Marshal(body)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// plainPost is the plain way's exchange: data posted to url with the
// headers the service needs, through hc, to the bytes of a 200 reply.
func plainPost(b *testing.B, hc *http.Client, url, auth string, data []byte) []byte {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("X-Merchantid", testMerchant)
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatal("status ", resp.StatusCode)
	}
	return body
}

func BenchmarkCreateSession(b *testing.B) {
	benchSDK(b, benchServer(b).URL, nil)
}

func BenchmarkCreateSessionRawHTTP(b *testing.B) {
	benchRaw(b, benchServer(b).URL, &http.Client{Transport: newTransport(), Timeout: 60 * time.Second})
}

func BenchmarkCreateSessionInMemory(b *testing.B) {
	benchSDK(b, "https://api.example.com", &http.Client{Transport: &cannedTransport{}})
}

func BenchmarkCreateSessionRawHTTPInMemory(b *testing.B) {
	benchRaw(b, "https://api.example.com", &http.Client{Transport: &cannedTransport{}})
}

// The JWE+JWS benchmarks are BenchmarkCreateSession and its InMemory twin
// in the JWE+JWS mode, against a service that answers with benchSessionReply
// sealed once (it does no cryptography per call). Set beside
// BenchmarkRSAOperations/all, the cryptography of one call done with go-jose
// alone, they show what the SDK adds over a Basic call plus the RSA
// operations:
//
//	go test -run '^$' -bench 'CreateSession(JWE)?(InMemory)?$|RSAOperations/all' -benchtime=500x -count=3 .

// sealedTransport answers every request with reply without any network,
// keeping the last body it read.
type sealedTransport struct {
	reply []byte
	mu    sync.Mutex
	last  []byte
}

func (t *sealedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.last = body
	t.mu.Unlock()
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(t.reply))}},
		ContentLength: int64(len(t.reply)),
		Body:          io.NopCloser(bytes.NewReader(t.reply)),
		Request:       r,
	}, nil
}

// requireSealedBody fails b unless the JWE+JWS mode seals exactly the body
// Basic mode sends (opened by go-jose alone, as the service would).
func requireSealedBody(b *testing.B, sealed []byte) {
	b.Helper()
	plain, err := svcOpenErr(sealed)
	require.NoError(b, err)
	want, err := benchRequest().encode(DefaultNamespace)
	require.NoError(b, err)
	require.Equal(b, string(want), string(plain))
}

// benchJWE runs CreateSession in the JWE+JWS mode against base, through hc
// when it is not nil; last returns the last body the service read.
func benchJWE(b *testing.B, base string, hc *http.Client, last func() []byte, keys ...Option) {
	opts := []Option{WithBaseURL(base), WithJWE(testKID, merchantRSA(), &serviceRSA().PublicKey)}
	opts = append(opts, keys...)
	if hc != nil {
		opts = append(opts, WithHTTPClient(hc))
	}
	c, err := NewClient(testMerchant, testKey, opts...)
	require.NoError(b, err)
	req := benchRequest()
	ctx := context.Background()
	s, err := c.CreateSession(ctx, req)
	require.NoError(b, err)
	require.Equal(b, benchSessionReply, string(s.Raw))
	requireSealedBody(b, last())
	loopCreateSession(b, c, req)
}

func BenchmarkCreateSessionJWE(b *testing.B) {
	reply := svcReply{}.seal(b, benchSessionReply)
	var mu sync.Mutex
	var last []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		last = body
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	}))
	b.Cleanup(srv.Close)
	benchJWE(b, srv.URL, nil, func() []byte { mu.Lock(); defer mu.Unlock(); return last })
}

func BenchmarkCreateSessionJWEInMemory(b *testing.B) {
	rt := &sealedTransport{reply: svcReply{}.seal(b, benchSessionReply)}
	benchJWE(b, "https://api.example.com", &http.Client{Transport: rt}, func() []byte {
		rt.mu.Lock()
		defer rt.mu.Unlock()
		return rt.last
	})
}

// The pair of BenchmarkCreateSessionJWEInMemory with the merchant key
// behind crypto.Signer and crypto.Decrypter only (WithJWEKeys).
func BenchmarkCreateSessionJWEKeysInMemory(b *testing.B) {
	rt := &sealedTransport{reply: svcReply{}.seal(b, benchSessionReply)}
	h := handle{merchantRSA()}
	benchJWE(b, "https://api.example.com", &http.Client{Transport: rt}, func() []byte {
		rt.mu.Lock()
		defer rt.mu.Unlock()
		return rt.last
	}, WithJWEKeys(testKID, h, h, &serviceRSA().PublicKey))
}

// The pair of BenchmarkCreateSessionInMemory with an Observer that does
// nothing: what the hooks cost; without one (nil) they are not called.
func BenchmarkCreateSessionInMemoryObserved(b *testing.B) {
	c, err := NewClient(testMerchant, testKey, WithBaseURL("https://api.example.com"),
		WithHTTPClient(&http.Client{Transport: &cannedTransport{}}), WithObserver(nopObserver{}))
	require.NoError(b, err)
	loopCreateSession(b, c, benchRequest())
}

type nopObserver = NopObserver

// ---- benchmarks: the SDK's seal+open beside the RSA operations alone ----

// benchJWEBodies are a session request and reply of realistic size.
func benchJWEBodies(b *testing.B) (req, reply []byte) {
	req, err := json.Marshal(benchRequest())
	if err != nil {
		b.Fatal(err)
	}
	return req, []byte(benchSessionReply)
}

// BenchmarkRSAOperations is the cryptography of one JWE+JWS call done with
// go-jose directly: sign and encrypt the request, decrypt and verify the
// reply. BenchmarkSealOpen does the same through the SDK.
func BenchmarkRSAOperations(b *testing.B) {
	req, reply := benchJWEBodies(b)
	mk, sk := merchantRSA(), serviceRSA()
	sign := func(p []byte, k *rsa.PrivateKey) string {
		s := must(gojose.NewSigner(gojose.SigningKey{Algorithm: gojose.RS256, Key: k}, (&gojose.SignerOptions{}).WithHeader("kid", testKID)))
		return must(must(s.Sign(p)).CompactSerialize())
	}
	encrypt := func(p []byte, k *rsa.PublicKey) string {
		e := must(gojose.NewEncrypter(gojose.A256GCM, gojose.Recipient{Algorithm: gojose.RSA_OAEP_256, Key: k, KeyID: testKID}, nil))
		return must(must(e.Encrypt(p)).CompactSerialize())
	}
	decrypt := func(tok string, k *rsa.PrivateKey) []byte {
		return must(must(gojose.ParseEncryptedCompact(tok, []gojose.KeyAlgorithm{gojose.RSA_OAEP_256}, []gojose.ContentEncryption{gojose.A256GCM})).Decrypt(k))
	}
	verify := func(tok string, k *rsa.PublicKey) []byte {
		return must(must(gojose.ParseSignedCompact(tok, []gojose.SignatureAlgorithm{gojose.RS256})).Verify(k))
	}
	signedReply := sign(reply, sk)
	sealedReply := encrypt([]byte(signedReply), &mk.PublicKey)
	signedReq := sign(req, mk)

	b.Run("sign", func(b *testing.B) {
		for b.Loop() {
			sign(req, mk)
		}
	})
	b.Run("encrypt", func(b *testing.B) {
		for b.Loop() {
			encrypt([]byte(signedReq), &sk.PublicKey)
		}
	})
	b.Run("decrypt", func(b *testing.B) {
		for b.Loop() {
			decrypt(sealedReply, mk)
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			verify(signedReply, &sk.PublicKey)
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			encrypt([]byte(sign(req, mk)), &sk.PublicKey)
			if len(verify(string(decrypt(sealedReply, mk)), &sk.PublicKey)) != len(reply) {
				b.Fatal("reply changed")
			}
		}
	})
}

// BenchmarkSealOpen is the SDK's seal of a session request and open of a
// session reply (in the service's JSON envelopes, with every check).
func BenchmarkSealOpen(b *testing.B) {
	req, reply := benchJWEBodies(b)
	j := testJWE(b)
	sealed := svcReply{}.seal(b, string(reply))
	b.Run("seal", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.seal(context.Background(), "create session", req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.open(context.Background(), "create session", sealed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			if _, err := j.seal(context.Background(), "create session", req); err != nil {
				b.Fatal(err)
			}
			p, err := j.open(context.Background(), "create session", sealed)
			if err != nil || len(p) != len(reply) {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCreateSessionStages splits the InMemory pair into its three
// stages, each the SDK beside the plain way doing the same work, so a run
// shows where the SDK's extra time per call goes:
//
//	go test -run '^$' -bench 'CreateSessionStages' -benchmem -benchtime=20000x -count=3 .
//
// The stages:
//   - encode: the SDK validates the request and encodes its body; the plain
//     way encodes the summary and then the body (it validates nothing).
//   - exchange: one request with the body already encoded, through the
//     canned transport, to the bytes of the reply; the SDK adds its headers,
//     go-retryablehttp and the trace hooks.
//   - decode: the ~1 KB reply into the reply type; the SDK decodes every
//     field (payment_links and its time too), keeps Raw and checks what
//     identifies a session, the plain way decodes four fields.
func BenchmarkCreateSessionStages(b *testing.B) {
	requireSameBodies(b)
	const base = "https://api.example.com"
	ctx := context.Background()
	sdkBody, err := benchRequest().encode(DefaultNamespace)
	if err != nil {
		b.Fatal(err)
	}
	reply := []byte(benchSessionReply)

	b.Run("encode/sdk", func(b *testing.B) {
		req := benchRequest()
		b.ReportAllocs()
		for b.Loop() {
			if err := req.Validate(); err != nil {
				b.Fatal(err)
			}
			if _, err := req.encode(DefaultNamespace); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode/plain", func(b *testing.B) {
		body, summary := rawRequest()
		b.ReportAllocs()
		for b.Loop() {
			plainEncode(b, &body, summary)
		}
	})

	b.Run("exchange/sdk", func(b *testing.B) {
		c, err := NewClient(testMerchant, testKey, WithBaseURL(base), WithHTTPClient(&http.Client{Transport: &cannedTransport{}}))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			// The reply is read, not decoded: decoding is the next stage.
			cl := &call{op: "create session", name: "CreateSession", method: "POST", route: "/session", path: "/session", body: sdkBody, write: true}
			var m ResponseMeta
			if err := c.do(ctx, cl, []RequestOption{WithResponseMeta(&m)}, anyReply{}); err != nil || m.HTTPStatus != 200 {
				b.Fatal(err, m.HTTPStatus)
			}
		}
	})
	b.Run("exchange/plain", func(b *testing.B) {
		hc := &http.Client{Transport: &cannedTransport{}}
		auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))
		b.ReportAllocs()
		for b.Loop() {
			if data := plainPost(b, hc, base+"/session", auth, sdkBody); len(data) != len(reply) {
				b.Fatal(len(data))
			}
		}
	})

	b.Run("decode/sdk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := decodeReply[Session](reply)
			if err != nil || len(s.SDKPayload) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out rawSessionReply
			if err := json.Unmarshal(reply, &out); err != nil || len(out.SDKPayload) == 0 {
				b.Fatal(err)
			}
		}
	})
}
