package webhook

import (
	"encoding/json"
	"os"
	"testing"
)

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
