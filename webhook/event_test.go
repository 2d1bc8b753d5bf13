package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	default:
		return ""
	}
}

// subjectOf finds the one object under content, the generic way.
func subjectOf(m map[string]any) (string, map[string]any) {
	content, _ := m["content"].(map[string]any)
	var kinds []string
	for k, v := range content {
		if _, ok := v.(map[string]any); ok {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) != 1 {
		return "", nil
	}
	return kinds[0], content[kinds[0]].(map[string]any)
}

func TestConformanceWebhooks(t *testing.T) {
	samples := conformance.Files(t, "webhooks", "*")
	decoded := 0
	names := map[string]bool{}
	for _, s := range samples {
		t.Run(s.Name, func(t *testing.T) {
			ev, err := ParseEvent(s.Data)
			if !s.ValidJSON() {
				// Published with comments or unquoted keys: a robustness
				// vector, refused cleanly.
				require.ErrorIs(t, err, ErrMalformedBody)
				require.Nil(t, ev)
				return
			}
			require.NoError(t, err)
			decoded++
			m := wiretest.Object(t, s.Data)
			kind, obj := subjectOf(m)
			require.NotEmpty(t, kind, "every valid sample has one object under content")

			require.Equal(t, text(m["id"]), ev.ID)
			require.Equal(t, text(m["event_name"]), ev.Name)
			require.Equal(t, kind, ev.Kind())
			require.Equal(t, text(obj["order_id"]), ev.OrderID())
			require.Equal(t, text(obj["status"]), ev.Status())
			require.Equal(t, string(s.Data), string(ev.Raw))
			require.JSONEq(t, mustJSON(t, m["content"]), string(ev.Content))
			if d := text(m["date_created"]); d != "" {
				want, err := time.Parse(time.RFC3339, d)
				require.NoError(t, err)
				require.True(t, want.Equal(ev.DateCreated.Time), "%s vs %s", want, ev.DateCreated)
			}
			names[ev.Name] = true

			// DecodeContent gives the merchant the same object.
			var got map[string]any
			require.NoError(t, ev.DecodeContent(&got))
			require.Equal(t, text(obj["order_id"]), text(got["order_id"]))
		})
	}
	require.GreaterOrEqual(t, decoded, 24, "too few samples decoded; was the folder emptied?")
	require.GreaterOrEqual(t, len(names), 15)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// eventSummary is what the golden file records for each own sample.
type eventSummary struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	DateCreated string `json:"date_created"`
	Kind        string `json:"kind"`
	OrderID     string `json:"order_id"`
	Status      string `json:"status"`
	DedupKey    string `json:"dedup_key"`
}

func TestEventGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/events/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	got := map[string]eventSummary{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		ev, err := ParseEvent(data)
		require.NoError(t, err, f)
		s := eventSummary{ID: ev.ID, Name: ev.Name, Kind: ev.Kind(), OrderID: ev.OrderID(), Status: ev.Status(), DedupKey: ev.DedupKey()}
		if !ev.DateCreated.IsZero() {
			s.DateCreated = ev.DateCreated.UTC().Format(time.RFC3339Nano)
		}
		got[filepath.Base(f)] = s
	}
	out, err := json.MarshalIndent(got, "", "  ")
	require.NoError(t, err)
	out = append(out, '\n')
	wiretest.Golden(t, "events.golden.json", out)
}

func TestParseEventErrors(t *testing.T) {
	tests := []struct {
		name string
		body string
		want error
	}{
		{"empty", ``, ErrMalformedBody},
		{"spaces", "  \n", ErrMalformedBody},
		{"array", `[{"event_name":"X"}]`, ErrMalformedBody},
		{"string", `"ORDER_SUCCEEDED"`, ErrMalformedBody},
		{"null", `null`, ErrMalformedBody},
		{"truncated", `{"event_name":"X"`, ErrMalformedBody},
		{"trailing garbage", `{"event_name":"X"} {}`, ErrMalformedBody},
		{"no event_name", `{"id":"e","content":{}}`, ErrMalformedBody},
		{"empty event_name", `{"id":"e","event_name":""}`, ErrMalformedBody},
		{"object event_name", `{"id":"e","event_name":{"a":1}}`, ErrMalformedBody},
		{"jwt envelope", `{"JWT":"a.b.c.d.e"}`, ErrEncrypted},
		{"json jwe envelope", `{"header":"a","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`, ErrEncrypted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent([]byte(tt.body))
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, ev)
		})
	}
}

func TestEventHelpersLenient(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"id":7,"event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":123,"status":"CHARGED","amount":"1.00"}}}`))
	require.NoError(t, err)
	require.Equal(t, "7", ev.ID)
	o, err := ev.Order()
	require.NoError(t, err)
	require.Equal(t, o.OrderID, ev.OrderID(), "the helper says what the typed order says")
	require.Equal(t, "1.00", ev.Field("amount"))
	require.Equal(t, "", ev.Field("missing"))

	var nilEvent *Event
	require.NotPanics(t, func() {
		require.Equal(t, "", nilEvent.OrderID())
		require.Equal(t, "", nilEvent.Status())
		require.Equal(t, "", nilEvent.Kind())
		require.Equal(t, "", nilEvent.Field("order_id"))
		require.Equal(t, "", nilEvent.DedupKey())
		require.ErrorIs(t, nilEvent.DecodeContent(&struct{}{}), ErrMalformedBody)
		b, err := json.Marshal(nilEvent)
		require.NoError(t, err)
		require.Equal(t, "null", string(b))
	})

	ev, err = ParseEvent([]byte(`{"event_name":"X","content":"FILTERED"}`))
	require.NoError(t, err)
	require.Equal(t, "", ev.Kind())
	require.Equal(t, "", ev.OrderID())
	require.ErrorIs(t, ev.DecodeContent(&struct{}{}), ErrMalformedBody)
	require.Equal(t, `"FILTERED"`, string(ev.Content))

	var wrongType struct {
		OrderID int `json:"order_id"`
	}
	ev, err = ParseEvent([]byte(`{"event_name":"X","content":{"order":{"order_id":"ord_1"}}}`))
	require.NoError(t, err)
	err = ev.DecodeContent(&wrongType)
	require.ErrorIs(t, err, ErrMalformedBody)
	require.ErrorContains(t, err, "content.order")

	ev, err = ParseEvent([]byte(`{"event_name":"X","content":null}`))
	require.NoError(t, err)
	require.Nil(t, ev.Content)
}

func TestDedupKey(t *testing.T) {
	a, _ := ParseEvent([]byte(`{"id":"evt_1","event_name":"ORDER_FAILED"}`))
	b, _ := ParseEvent([]byte(`{"id":"evt_1","event_name":"ORDER_SUCCEEDED"}`))
	a2, _ := ParseEvent([]byte(`{"event_name":"ORDER_FAILED", "id":"evt_1", "extra": 1}`))
	require.Equal(t, "id:ORDER_FAILED:evt_1", a.DedupKey())
	require.NotEqual(t, a.DedupKey(), b.DedupKey(), "one id reused by two events is two events")
	require.Equal(t, a.DedupKey(), a2.DedupKey(), "a re-send is the same event")

	n1, _ := ParseEvent([]byte(`{"event_name":"X","content":{"a":1}}`))
	n2, _ := ParseEvent([]byte(`{"event_name":"X","content":{"a":2}}`))
	require.True(t, strings.HasPrefix(n1.DedupKey(), "sha256:"))
	require.Len(t, n1.DedupKey(), len("sha256:")+64)
	require.NotEqual(t, n1.DedupKey(), n2.DedupKey())

	// Colons and odd bytes cannot make two events collide.
	c1, _ := ParseEvent([]byte(`{"id":"B:C","event_name":"A"}`))
	c2, _ := ParseEvent([]byte(`{"id":"C","event_name":"A:B"}`))
	require.NotEqual(t, c1.DedupKey(), c2.DedupKey())
	require.True(t, strings.HasPrefix(c2.DedupKey(), "idsha256:"))

	// Long ids are hashed: a key never exceeds 128 bytes, whatever the
	// sender puts in "id", and a re-send still finds its key.
	long := strings.Repeat("x", 1<<16)
	l1, _ := ParseEvent([]byte(`{"id":"` + long + `","event_name":"ORDER_SUCCEEDED"}`))
	l1again, _ := ParseEvent([]byte(`{"event_name":"ORDER_SUCCEEDED","id":"` + long + `"}`))
	l2, _ := ParseEvent([]byte(`{"id":"` + long + `y","event_name":"ORDER_SUCCEEDED"}`))
	require.True(t, strings.HasPrefix(l1.DedupKey(), "idsha256:"))
	require.Equal(t, l1.DedupKey(), l1again.DedupKey())
	require.NotEqual(t, l1.DedupKey(), l2.DedupKey())
	edge := strings.Repeat("i", 124-len("ORDER_SUCCEEDED"))
	e1, _ := ParseEvent([]byte(`{"id":"` + edge + `","event_name":"ORDER_SUCCEEDED"}`))
	require.Equal(t, "id:ORDER_SUCCEEDED:"+edge, e1.DedupKey())
	require.Len(t, e1.DedupKey(), 128)
	e2, _ := ParseEvent([]byte(`{"id":"` + edge + `i","event_name":"ORDER_SUCCEEDED"}`))
	require.True(t, strings.HasPrefix(e2.DedupKey(), "idsha256:"))
}

// FuzzParseEvent: the body decoder never panics, and what it accepts is an
// object with a name whose helpers all work.
func FuzzParseEvent(f *testing.F) {
	files, _ := filepath.Glob("testdata/events/*.json")
	for _, fn := range files {
		if b, err := os.ReadFile(fn); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{`{"JWT":"x"}`, `{"event_name":"X","content":"FILTERED"}`, `[]`, `{"event_name":1e999}`, `{"id":"\ud800","event_name":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := ParseEvent(body)
		if err != nil {
			if ev != nil {
				t.Fatal("event with error")
			}
			return
		}
		if ev.Name == "" || !json.Valid(body) {
			t.Fatalf("accepted %q", body)
		}
		_ = ev.Kind()
		_ = ev.OrderID()
		_ = ev.Status()
		_ = ev.DecodeContent(new(map[string]any))
		if k := ev.DedupKey(); k == "" || len(k) > 128 {
			t.Fatalf("dedup key %q", k)
		}
	})
}

func TestEventMarshalJSON(t *testing.T) {
	ev := Event{ID: "evt_1", Name: OrderSucceeded, DateCreated: checkout.Timestamp{Time: time.Date(2023, 8, 10, 12, 30, 48, 0, time.FixedZone("IST", 19800))},
		Content: json.RawMessage(`{"order":{"order_id":"ord_1","status":"CHARGED"}}`), Raw: []byte("ignored"), Encrypted: true}
	b, err := json.Marshal(ev)
	require.NoError(t, err)
	require.Equal(t, `{"id":"evt_1","event_name":"ORDER_SUCCEEDED","date_created":"2023-08-10T12:30:48+05:30","content":{"order":{"order_id":"ord_1","status":"CHARGED"}}}`, string(b))
	back, err := ParseEvent(b)
	require.NoError(t, err)
	require.Equal(t, ev.ID, back.ID)
	require.True(t, ev.DateCreated.Equal(back.DateCreated))
	require.Equal(t, "ord_1", back.OrderID())

	b, err = json.Marshal(&Event{Name: "X"})
	require.NoError(t, err)
	require.Equal(t, `{"event_name":"X"}`, string(b))
}

// date_created is read in every form a reply's time is: the service's
// +0000 offset included.
func TestEventDateCreatedForms(t *testing.T) {
	want := time.Date(2016, 8, 2, 8, 7, 52, 0, time.UTC)
	for _, dc := range []string{`"2016-08-02T08:07:52Z"`, `"2016-08-02T08:07:52+0000"`, `1470125272`, `"1470125272"`} {
		ev, err := ParseEvent([]byte(`{"event_name":"X","date_created":` + dc + `}`))
		require.NoError(t, err)
		require.True(t, want.Equal(ev.DateCreated.Time), "%s: %v", dc, ev.DateCreated)
	}
	ev, err := ParseEvent([]byte(`{"event_name":"X","date_created":"FILTERED"}`))
	require.NoError(t, err)
	require.True(t, ev.DateCreated.IsZero())
}

// date_created is written as checkout.Timestamp writes it, in the time's
// own offset: a time Timestamp reads is written with a year in 0–9999 and
// read back as the same instant; a year outside that range is never
// written (issue 26 item 8).
func TestEventDateCreatedRoundTrip(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"event_name":"X","date_created":"9999-12-31T23:59:59-23:59"}`))
	require.NoError(t, err)
	require.False(t, ev.DateCreated.IsZero())
	b, err := json.Marshal(ev)
	require.NoError(t, err)
	require.Equal(t, `{"event_name":"X","date_created":"9999-12-31T23:59:59-23:59"}`, string(b))
	back, err := ParseEvent(b)
	require.NoError(t, err)
	require.True(t, ev.DateCreated.Equal(back.DateCreated))

	far := Event{Name: "X", DateCreated: checkout.Timestamp{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}
	_, err = json.Marshal(far)
	require.Error(t, err, "a year past 9999 is not written")
}

// FuzzEventRoundTrip: an event ParseEvent accepts is written by
// json.Marshal (or refused, only for a year outside 0–9999) and read back
// with the same id, name, instant and content.
func FuzzEventRoundTrip(f *testing.F) {
	for _, s := range []string{
		`{"id":"evt_1","event_name":"ORDER_SUCCEEDED","date_created":"2023-08-10T07:00:48+0000","content":{"order":{"order_id":"o"}}}`,
		`{"event_name":"X","date_created":"9999-12-31T23:59:59-23:59"}`,
		`{"event_name":"X","date_created":"0000-01-01T00:00:00+23:59"}`,
		`{"id":12,"event_name":"X","date_created":1470125272}`,
		`{"event_name":"X","date_created":"FILTERED","content":"FILTERED"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := ParseEvent(body)
		if err != nil {
			return
		}
		b, err := json.Marshal(ev)
		if err != nil {
			if y := ev.DateCreated.Year(); y >= 0 && y <= 9999 {
				t.Fatalf("%s: %v", body, err)
			}
			return
		}
		back, err := ParseEvent(b)
		require.NoError(t, err, "%s", b)
		require.Equal(t, ev.ID, back.ID)
		require.Equal(t, ev.Name, back.Name)
		require.True(t, ev.DateCreated.Equal(back.DateCreated), "%s: %v then %v", b, ev.DateCreated, back.DateCreated)
		if ev.Content != nil {
			require.JSONEq(t, string(ev.Content), string(back.Content))
		}
		require.Equal(t, ev.OrderID(), back.OrderID())
	})
}

// An ORDER_PARTIAL_CHARGED event: the order and its TxnList, both
// statuses with their ids; Transaction gives the txn_detail the service
// names latest, as documented.
func TestPartialChargedEvent(t *testing.T) {
	body := `{"id":"evt_split","event_name":"ORDER_PARTIAL_CHARGED","content":{"order":{"order_id":"ord_split",
		"status":"PARTIAL_CHARGED","status_id":37,"amount":1500,
		"txn_detail":{"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED"},
		"txn_list":[{"txn_id":"shop-ord_split-1","status":"CHARGED","payment_method_type":"UPI","txn_amount":500},
			{"txn_id":"shop-ord_split-2","status":"TO_BE_CHARGED","payment_method_type":"CARD","txn_amount":1000}]}}}`
	ev, err := ParseEvent([]byte(body))
	require.NoError(t, err)
	require.Equal(t, OrderPartialCharged, ev.Name)
	o, err := ev.Order()
	require.NoError(t, err)
	require.Equal(t, checkout.StatusPartialCharged, o.Status)
	require.Equal(t, 37, o.Status.ID())
	require.False(t, o.IsPaid())
	require.Len(t, o.TxnList, 2)
	require.Equal(t, checkout.StatusCharged, o.TxnList[0].Status)
	require.Equal(t, checkout.StatusToBeCharged, o.TxnList[1].Status)
	require.Equal(t, 38, o.TxnList[1].Status.ID())
	txn, err := ev.Transaction()
	require.NoError(t, err)
	require.Equal(t, "shop-ord_split-2", txn.TxnID, "txn_detail, the one the service names latest")
}

// Every event the service documents has its constant.
func TestDocumentedEventNames(t *testing.T) {
	for name, c := range map[string]string{
		"TXN_CHARGED": TxnCharged, "MANDATE_REVOKED": MandateRevoked, "ORDER_PARTIAL_CHARGED": OrderPartialCharged,
		"REFUND_MANUAL_REVIEW_NEEDED": RefundManualReviewNeeded, "ORDER_SUCCEEDED": OrderSucceeded,
		"NOTIFICATION_FAILED": NotificationFailed, "TXN_CREATED": TxnCreated, "MANDATE_PAUSED": MandatePaused,
	} {
		require.Equal(t, name, c)
	}
}

// An event prints and logs with its content's bearer tokens redacted, under
// every verb and slog handler; json.Marshal and Raw keep them.
func TestEventPrintsNoToken(t *testing.T) {
	body := []byte(`{"id":"evt_1","event_name":"MANDATE_ACTIVATED","content":{"mandate":{"mandate_id":"m1","mandate_token":"tok-secret-1"}}}`)
	ev, err := ParseEvent(body)
	require.NoError(t, err)
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("event", "ev", ev)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("event", "ev", *ev)
	for _, out := range []string{fmt.Sprintf("%v %+v %#v %s %q", ev, ev, ev, ev, ev), fmt.Sprintf("%v %+v", *ev, *ev), fmt.Sprint(ev.Raw), buf.String()} {
		require.NotContains(t, out, "tok-secret-1")
	}
	require.Contains(t, fmt.Sprint(ev), "m1", "the rest of the content prints")
	b, err := json.Marshal(ev)
	require.NoError(t, err)
	require.Contains(t, string(b), "tok-secret-1")
	require.Contains(t, string(ev.Raw), "tok-secret-1")
}
