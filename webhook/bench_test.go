package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"testing"

	checkout "github.com/payorch/checkout-go"
)

// The benchmark pair: the full Handler (source check, constant-time Basic
// credentials, body limit, decoding, deduplication, the merchant function)
// beside a bare handler that only reads and decodes the same JSON. Each
// iteration delivers a new event id (written into a fixed-width slot), so
// the Handler really runs its Begin/fn/Done path instead of answering
// duplicates. Reproduce:
//
//	go test -run '^$' -bench 'WebhookHandler' -benchmem -benchtime=200ms ./webhook/

const benchIDSlot = "evt_V2_0000000000000000"

func benchBody(b *testing.B) ([]byte, int) {
	b.Helper()
	body, err := os.ReadFile("testdata/bench_order_event.json")
	if err != nil {
		b.Fatal(err)
	}
	at := bytes.Index(body, []byte(benchIDSlot))
	if at < 0 {
		b.Fatal("id slot not found")
	}
	return body, at + len("evt_V2_")
}

// writeID writes n, zero-padded, into the slot: same length, new event.
func writeID(body []byte, at, n int) {
	var buf [16]byte
	s := strconv.AppendInt(buf[:0], int64(n), 10)
	slot := body[at : at+16]
	for i := range slot {
		slot[i] = '0'
	}
	copy(slot[16-len(s):], s)
}

// discardWriter is the cheapest ResponseWriter, the same for both.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }

func runBench(b *testing.B, h http.Handler, cfg Config) {
	body, at := benchBody(b)
	base := NewTestRequest(cfg, body)
	w := &discardWriter{h: http.Header{}}
	rd := bytes.NewReader(body)
	rc := io.NopCloser(rd)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		writeID(body, at, i)
		rd.Reset(body)
		r := *base
		r.Body = rc
		clear(w.h)
		w.code = 0
		h.ServeHTTP(w, &r)
		if w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
	}
}

func BenchmarkWebhookHandler(b *testing.B) { benchHandler(b, nil) }

// The observer pair: the full Handler with a nil Observer and with one
// that does nothing; a nil Observer must cost nothing measurable.
//
//	go test -run '^$' -bench 'WebhookObserver' -count 6 ./webhook/
func BenchmarkWebhookObserverNil(b *testing.B)  { benchHandler(b, nil) }
func BenchmarkWebhookObserverNoop(b *testing.B) { benchHandler(b, noopObserver{}) }

type noopObserver struct{ checkout.NopObserver }

func (noopObserver) ObserveDelivery(context.Context, checkout.Delivery) {}

func benchHandler(b *testing.B, obs checkout.Observer) {
	cfg := Config{Username: "shopwebhooks", Password: "correct horse battery staple", Sources: ProductionSources,
		Headers: map[string]string{"X-Shop-Env": "production"}, Observer: obs}
	v, err := NewVerifier(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var seen int
	h := v.Handler(func(_ context.Context, ev *Event) error {
		if ev.Name != "" {
			seen++
		}
		return nil
	})
	runBench(b, h, cfg)
	if seen != b.N {
		b.Fatalf("fn ran %d times for %d events", seen, b.N)
	}
}

func BenchmarkWebhookHandlerBare(b *testing.B) {
	cfg := Config{Username: "shopwebhooks", Password: "correct horse battery staple"}
	var seen int
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var ev struct {
			ID          string          `json:"id"`
			EventName   string          `json:"event_name"`
			DateCreated string          `json:"date_created"`
			Content     json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(body, &ev); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if ev.EventName != "" {
			seen++
		}
		w.WriteHeader(http.StatusOK)
	})
	runBench(b, h, cfg)
	if seen != b.N {
		b.Fatalf("decoded %d of %d", seen, b.N)
	}
}

// The benchmark pair for the Event helpers: ParseEvent and then Kind,
// OrderID and Status (what a webhook handler does with every delivery),
// beside decoding the same body with encoding/json into a struct that names
// just those fields. Reproduce:
//
//	go test -run '^$' -bench 'EventOrderIDStatus' -benchmem -benchtime=200ms ./webhook/

func benchEvent(b *testing.B) []byte {
	b.Helper()
	body, err := os.ReadFile("testdata/bench_order_event.json")
	if err != nil {
		b.Fatal(err)
	}
	return body
}

func BenchmarkEventOrderIDStatus(b *testing.B) {
	body := benchEvent(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		ev, err := ParseEvent(body)
		if err != nil {
			b.Fatal(err)
		}
		if ev.Kind() != "order" || ev.OrderID() == "" || ev.Status() == "" {
			b.Fatalf("kind %q, order %q, status %q", ev.Kind(), ev.OrderID(), ev.Status())
		}
	}
}

func BenchmarkEventOrderIDStatusJSON(b *testing.B) {
	body := benchEvent(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var ev struct {
			EventName string `json:"event_name"`
			Content   struct {
				Order *struct {
					OrderID string `json:"order_id"`
					Status  string `json:"status"`
				} `json:"order"`
			} `json:"content"`
		}
		if err := json.Unmarshal(body, &ev); err != nil {
			b.Fatal(err)
		}
		if ev.EventName == "" || ev.Content.Order == nil || ev.Content.Order.OrderID == "" || ev.Content.Order.Status == "" {
			b.Fatal("fields missing")
		}
	}
}

// BenchmarkEventHelpersRepeated is the cost of one more call of OrderID and
// Status on an event already parsed (a handler that logs them, then
// branches on them, then stores them).
func BenchmarkEventHelpersRepeated(b *testing.B) {
	ev, err := ParseEvent(benchEvent(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if ev.OrderID() == "" || ev.Status() == "" {
			b.Fatal("fields missing")
		}
	}
}
