package checkout

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"
)

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
			cl := &call{op: "create session", method: "POST", path: "/session", body: sdkBody, contentType: "application/json", jwePath: "/v4/session"}
			var data json.RawMessage
			if err := c.send(ctx, cl, nil, &data); err != nil || len(data) != len(reply) {
				b.Fatal(err, len(data))
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
