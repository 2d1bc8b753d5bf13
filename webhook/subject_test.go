package webhook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// refSubject is how the helpers read content before subject.go: decode
// content into a map, take the first well-known key holding an object, else
// the first key in document order holding an object, and decode that
// object into a map. The subject reader must agree with it on every valid
// content.
func refSubject(content json.RawMessage) (string, map[string]json.RawMessage) {
	if len(content) == 0 || content[0] != '{' {
		return "", nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(content, &m) != nil {
		return "", nil
	}
	for _, k := range [...]string{"order", "txn", "mandate", "refund", "notification"} {
		if obj := refObject(m[k]); obj != nil {
			return k, obj
		}
	}
	dec := json.NewDecoder(bytes.NewReader(content))
	if _, err := dec.Token(); err != nil {
		return "", nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", nil
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return "", nil
		}
		if key, ok := t.(string); ok {
			if obj := refObject(v); obj != nil {
				return key, obj
			}
		}
	}
	return "", nil
}

func refObject(raw json.RawMessage) map[string]json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// checkAgainstRef compares every helper of ev with refSubject on content.
func checkAgainstRef(t *testing.T, ev *Event, content json.RawMessage) {
	t.Helper()
	kind, obj := refSubject(content)
	require.Equal(t, kind, ev.Kind(), "kind of %s", content)
	require.Equal(t, scalarText(obj["order_id"]), ev.OrderID(), "order_id of %s", content)
	require.Equal(t, scalarText(obj["status"]), ev.Status(), "status of %s", content)
	for name := range obj {
		require.Equal(t, scalarText(obj[name]), ev.Field(name), "field %q of %s", name, content)
	}
	require.Equal(t, "", ev.Field("\x00no such field"))
	var got map[string]json.RawMessage
	err := ev.DecodeContent(&got)
	if kind == "" {
		require.ErrorIs(t, err, ErrMalformedBody)
		return
	}
	require.NoError(t, err)
	require.Equal(t, obj, got, "DecodeContent of %s", content)
}

// subjectCases are contents whose reading is easy to get wrong: repeated
// keys (the last value counts, as in a map), escaped and non-ASCII keys,
// strings holding braces and quotes, a redacted object, well-known keys
// that are not objects.
var subjectCases = []string{
	`{"order":{"order_id":"ord_1","status":"CHARGED"}}`,
	`{"note":"x","payout":{"order_id":"po_1","status":"SETTLED","extra":[1,2,{"x":null}]}}`,
	`{"a":{"order_id":"a"},"order":{"order_id":"o"}}`,
	`{"order":"FILTERED","txn":{"order_id":"t","status":"AUTHORIZATION_FAILED"}}`,
	`{"order":{"order_id":"first"},"order":{"order_id":"second"}}`,
	`{"order":{"order_id":"kept"},"order":"FILTERED"}`,
	`{"order":{"order_id":"1","order_id":"2","status":"A","status":null}}`,
	`{"\u006frder":{"\u006frder_id":"escaped key","st\u0061tus":"OK"}}`,
	`{"ordér":{"order_id":"é"},"order":1}`,
	`{"x":"{\"order\":{\"order_id\":\"no\"}}","y":{"order_id":"}\"{[","status":"\u00e9\n"}}`,
	` { "order" : { "order_id" : 42 , "status" : "CHARGED" , "amount" : -1.5e3 } } `,
	`{"order":{}}`,
	`{}`,
	`{"order":[{"order_id":"array"}]}`,
	`{"mandate":{"order_id":true,"status":{"nested":"obj"}},"refund":{"order_id":"r"}}`,
	`{"notification":{"status":"SENT"},"zzz":{"order_id":"z"}}`,
	`"FILTERED"`,
	`[{"order":{}}]`,
	"{\"bad\xffkey\":{\"order_id\":\"invalid utf-8 key\",\"st\xfeatus\":1}}",
	`{"k":"v\\"}`,
}

func TestSubjectMatchesDecoding(t *testing.T) {
	contents := append([]string(nil), subjectCases...)
	files, err := filepath.Glob("testdata/events/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, fn := range files {
		body, err := os.ReadFile(fn)
		require.NoError(t, err)
		var w struct{ Content json.RawMessage }
		require.NoError(t, json.Unmarshal(body, &w), fn)
		contents = append(contents, string(w.Content))
	}
	for _, c := range contents {
		if !json.Valid([]byte(c)) {
			t.Fatalf("case %q is not valid JSON", c)
		}
		parsed, err := ParseEvent([]byte(`{"event_name":"X","content":` + c + `}`))
		require.NoError(t, err)
		require.True(t, parsed.decoded.holds(parsed.Content) || parsed.Content == nil, "kept from decoding")
		checkAgainstRef(t, parsed, parsed.Content)
		// The same content in an Event built by hand.
		checkAgainstRef(t, &Event{Name: "X", Content: json.RawMessage(c)}, json.RawMessage(c))
	}
}

// A hand-built Event with content that is not valid JSON holds no object,
// as before.
func TestSubjectInvalidContent(t *testing.T) {
	for _, c := range []string{`{"order":{"order_id":"x"}`, `{"order":{"order_id":"x"}} trailing`, `{"order":{"order_id":x}}`, `{`, `{"a"`, `{"a":}`, ` {"order":{}}`} {
		ev := &Event{Name: "X", Content: json.RawMessage(c)}
		require.Equal(t, "", ev.Kind(), c)
		require.Equal(t, "", ev.OrderID(), c)
		require.Equal(t, "", ev.Field("order_id"), c)
		require.ErrorIs(t, ev.DecodeContent(new(map[string]any)), ErrMalformedBody, c)
	}
}

// The content is read once, on the first call of a helper: calling them
// again on a parsed event allocates nothing (they do not decode content
// into maps again on every call).
func TestHelpersDoNotReparse(t *testing.T) {
	body, err := os.ReadFile("testdata/bench_order_event.json")
	require.NoError(t, err)
	ev, err := ParseEvent(body)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		if ev.Kind() != "order" || ev.OrderID() == "" || ev.Status() == "" {
			t.Fatal("helpers lost the order")
		}
	})
	require.Zero(t, allocs, "Kind, OrderID and Status re-read content")
}

// Replacing Content after decoding is seen by the helpers (the stored
// reading belongs to the old slice); a copied Event reads the same as the
// original; concurrent calls on one Event and its copies are race-free
// (run with -race).
func TestSubjectFollowsContent(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_1","status":"CHARGED"}}}`))
	require.NoError(t, err)
	cp := *ev
	require.Equal(t, "ord_1", cp.OrderID())

	cp.Content = json.RawMessage(`{"txn":{"order_id":"ord_2","status":"AUTHORIZATION_FAILED"}}`)
	require.Equal(t, "txn", cp.Kind())
	require.Equal(t, "ord_2", cp.OrderID())
	require.Equal(t, "AUTHORIZATION_FAILED", cp.Status())
	require.Equal(t, "ord_1", ev.OrderID(), "the original keeps its content")

	cp.Content = ev.Content[:len(ev.Content)-1] // same start, other length
	require.Equal(t, "", cp.Kind())
	cp.Content = nil
	require.Equal(t, "", cp.OrderID())

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			e := ev
			if i%2 == 1 {
				c := *ev
				e = &c
			}
			for range 100 {
				if e.OrderID() != "ord_1" || e.Status() != "CHARGED" || e.Kind() != "order" || e.Field("order_id") != "ord_1" {
					t.Error("wrong reading")
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzSubject: on any valid content the subject reader agrees with
// decoding into maps, for a parsed and a hand-built Event, and on any
// content it never panics.
func FuzzSubject(f *testing.F) {
	for _, c := range subjectCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		hand := &Event{Name: "X", Content: content}
		_ = hand.Kind()
		_ = hand.Field("order_id")
		if !json.Valid(content) {
			return
		}
		checkAgainstRef(t, hand, content)
		parsed, err := ParseEvent([]byte(`{"event_name":"X","content":` + string(content) + `}`))
		if err != nil {
			t.Fatalf("valid content refused: %v", err)
		}
		checkAgainstRef(t, parsed, parsed.Content)
	})
}
