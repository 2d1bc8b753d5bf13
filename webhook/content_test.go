package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/wiretest"
)

// Every published event gives its content typed by the kind its sample
// nests it under, and the other accessors say what is missing.
func TestContentAccessorsOnSamples(t *testing.T) {
	kinds := map[string]int{}
	for _, s := range conformance.Files(t, "webhooks", "*") {
		if !s.ValidJSON() {
			continue // robustness vectors: TestConformanceWebhooks
		}
		t.Run(s.Name, func(t *testing.T) {
			ev, err := ParseEvent(s.Data)
			require.NoError(t, err)
			m := wiretest.Object(t, s.Data)
			kind, obj := subjectOf(m)
			kinds[kind]++

			order, oerr := ev.Order()
			txn, terr := ev.Transaction()
			mandate, merr := ev.Mandate()
			refund, rerr := ev.Refund()
			switch kind {
			case "order":
				require.NoError(t, oerr)
				require.Equal(t, text(obj["order_id"]), order.OrderID)
				require.Equal(t, text(obj["status"]), string(order.Status))
				require.Equal(t, text(obj["id"]), order.ID)
				sameAmount(t, text(obj["amount"]), order.Amount)
				require.EqualValues(t, order.Status.ID(), order.StatusID, "status and status_id agree")
				require.JSONEq(t, mustJSON(t, obj), string(order.Raw))
				if td, ok := obj["txn_detail"].(map[string]any); ok {
					require.NoError(t, terr)
					require.Equal(t, text(td["txn_id"]), txn.TxnID)
					require.Equal(t, order.TxnDetail.TxnID, txn.TxnID)
				} else {
					require.ErrorIs(t, terr, ErrNoContent)
				}
				if md, ok := obj["mandate"].(map[string]any); ok {
					require.NoError(t, merr)
					require.Equal(t, text(md["mandate_id"]), mandate.MandateID)
				} else {
					require.ErrorIs(t, merr, ErrNoContent)
				}
				if rs, ok := obj["refunds"].([]any); ok && len(rs) > 0 {
					require.NoError(t, rerr)
					last := rs[len(rs)-1].(map[string]any)
					require.Equal(t, text(last["unique_request_id"]), refund.UniqueRequestID)
					require.Equal(t, text(last["status"]), string(refund.Status))
					require.Equal(t, order.Refunds[len(order.Refunds)-1], *refund)
				} else {
					require.ErrorIs(t, rerr, ErrNoContent)
				}
			case "txn":
				require.NoError(t, terr)
				require.Equal(t, text(obj["txn_id"]), txn.TxnID)
				require.Equal(t, text(obj["order_id"]), txn.OrderID)
				require.Equal(t, text(obj["status"]), string(txn.Status))
				require.Equal(t, text(obj["error_message"]), txn.ErrorMessage)
				require.ErrorIs(t, oerr, ErrNoContent)
				require.ErrorIs(t, merr, ErrNoContent)
				require.ErrorIs(t, rerr, ErrNoContent)
			case "mandate":
				require.NoError(t, merr)
				require.Equal(t, text(obj["mandate_id"]), mandate.MandateID)
				require.Equal(t, text(obj["status"]), mandate.Status)
				require.Equal(t, text(obj["order_id"]), mandate.OrderID)
				sameAmount(t, text(obj["max_amount"]), mandate.MaxAmount)
				require.ErrorIs(t, oerr, ErrNoContent)
				require.ErrorIs(t, terr, ErrNoContent)
				require.ErrorIs(t, rerr, ErrNoContent)
			case "notification":
				for _, err := range []error{oerr, terr, merr, rerr} {
					require.ErrorIs(t, err, ErrNoContent)
					require.ErrorContains(t, err, `its content holds "notification"`)
				}
			default:
				t.Fatalf("a sample nests its content under %q: teach the accessors", kind)
			}
			for _, err := range []error{oerr, terr, merr, rerr} {
				if err != nil {
					var ce *ContentError
					require.ErrorAs(t, err, &ce)
					require.Equal(t, ev.Name, ce.Event)
					require.Equal(t, kind, ce.Holds)
					require.NotErrorIs(t, err, ErrMalformedBody)
				}
			}
		})
	}
	require.Equal(t, map[string]int{"order": 14, "txn": 1, "mandate": 6, "notification": 3}, kinds,
		"the published samples nest their content under these keys")
}

func TestContentErrors(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"id":"e1","event_name":"MANDATE_CREATED","content":{"mandate":{"mandate_id":"m1"}}}`))
	require.NoError(t, err)
	_, err = ev.Order()
	require.EqualError(t, err, `checkout: read webhook content: MANDATE_CREATED event carries no order (its content holds "mandate")`)
	require.ErrorIs(t, err, ErrNoContent)
	var ce *ContentError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, ContentError{Event: "MANDATE_CREATED", Want: "order", Holds: "mandate"}, *ce)
	require.NoError(t, ce.Unwrap())

	_, err = ev.Refund()
	require.EqualError(t, err, `checkout: read webhook content: MANDATE_CREATED event carries no refund (its content holds "mandate")`)
	_, err = ev.Transaction()
	require.EqualError(t, err, `checkout: read webhook content: MANDATE_CREATED event carries no transaction (its content holds "mandate")`)

	for _, body := range []string{
		`{"event_name":"X"}`,
		`{"event_name":"X","content":null}`,
		`{"event_name":"X","content":{}}`,
	} {
		ev, err := ParseEvent([]byte(body))
		require.NoError(t, err, body)
		_, err = ev.Order()
		require.EqualError(t, err, `checkout: read webhook content: X event carries no order (its content holds no object)`, body)
		for _, want := range []string{"transaction", "mandate", "refund"} {
			require.ErrorIs(t, accessorErr(ev, want), ErrNoContent, "%s: %s", want, body)
		}
	}

	// Content, or a key of it, that is there but holds no object (redacted
	// as "FILTERED", null, a list) is damaged, not absent, whether the
	// event was parsed or built by hand.
	for _, body := range []string{
		`{"event_name":"X","content":{"order":"FILTERED","mandate":null,"txn":[]}}`,
		`{"event_name":"X","content":"FILTERED"}`,
		`{"event_name":"X","content":[{"order":{"order_id":"o1"}}]}`,
		`{"event_name":"X","content":5}`,
	} {
		ev, err := ParseEvent([]byte(body))
		require.NoError(t, err, body)
		byHand := &Event{Name: ev.Name, Content: bytes.Clone(ev.Content)}
		for _, want := range []string{"order", "transaction", "mandate"} {
			require.ErrorIs(t, accessorErr(ev, want), ErrMalformedBody, "%s: %s", want, body)
			require.ErrorIs(t, accessorErr(byHand, want), ErrMalformedBody, "%s: %s, built by hand", want, body)
		}
	}

	// An order without refunds, or whose refunds are redacted, has none.
	for _, refunds := range []string{``, `,"refunds":[]`, `,"refunds":"FILTERED"`, `,"refunds":null`} {
		ev, err := ParseEvent([]byte(`{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"o1"` + refunds + `}}}`))
		require.NoError(t, err)
		_, err = ev.Refund()
		require.EqualError(t, err, `checkout: read webhook content: ORDER_REFUNDED event carries no refund (its content holds "order")`, refunds)
	}

	// Content that is there but cannot be read is a malformed body, not
	// an absent one.
	ev, err = ParseEvent([]byte(`{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"o1","refunds":["FILTERED"]}}}`))
	require.NoError(t, err)
	_, err = ev.Refund()
	require.ErrorIs(t, err, ErrMalformedBody)
	require.NotErrorIs(t, err, ErrNoContent)
	require.ErrorContains(t, err, "checkout: read webhook content: ORDER_REFUNDED event: its refund does not decode: ")
	require.ErrorAs(t, err, &ce)
	require.Error(t, ce.Unwrap())

	// Sender-chosen names are clipped in messages.
	long := make([]byte, 500)
	for i := range long {
		long[i] = 'N'
	}
	ev = &Event{Name: string(long), Content: json.RawMessage(`{}`)}
	_, err = ev.Order()
	// 150 bytes before the message's prefix grew from "webhook: " to
	// "checkout: read webhook content: " (23 bytes more).
	require.Less(t, len(err.Error()), 173)
	require.NotContains(t, err.Error(), strings.Repeat("N", 65), "the name is clipped to 64 characters")

	var nilEvent *Event
	require.NotPanics(t, func() {
		_, err := nilEvent.Order()
		require.EqualError(t, err, `checkout: read webhook content: unnamed event carries no order (its content holds no object)`)
		for _, want := range []string{"transaction", "mandate", "refund"} {
			require.ErrorIs(t, accessorErr(nilEvent, want), ErrNoContent, want)
		}
		var nilErr *ContentError
		require.Equal(t, "checkout: read webhook content: <nil *ContentError>", nilErr.Error())
		require.False(t, nilErr.Is(ErrNoContent))
		require.NoError(t, nilErr.Unwrap())
	})
}

// The accessors read the content's shape, not the event name: an event
// this package has no constant for works the same.
func TestContentOfUnknownEvent(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"id":"e9","event_name":"ORDER_PARTIALLY_CHARGED","content":{"order":{"order_id":"o9","status":"PARTIAL_CHARGED","amount":"10.50","txn_detail":{"txn_id":"m-o9-1","status":"CHARGED"}}}}`))
	require.NoError(t, err)
	order, err := ev.Order()
	require.NoError(t, err)
	require.Equal(t, checkout.StatusPartialCharged, order.Status)
	sameAmount(t, "10.50", order.Amount)
	require.False(t, order.IsPaid())
	txn, err := ev.Transaction()
	require.NoError(t, err)
	require.Equal(t, "m-o9-1", txn.TxnID)
	require.Equal(t, checkout.StatusCharged, txn.Status)
	require.Equal(t, "o9", ev.OrderID())
	require.Equal(t, "PARTIAL_CHARGED", ev.Status())

	// A refund sent on its own, as content.refund.
	ev, err = ParseEvent([]byte(`{"event_name":"REFUND_SUCCEEDED","content":{"refund":{"unique_request_id":"r1","status":"SUCCESS","amount":5,"order_id":"o9"}}}`))
	require.NoError(t, err)
	r, err := ev.Refund()
	require.NoError(t, err)
	require.Equal(t, "r1", r.UniqueRequestID)
	require.Equal(t, checkout.RefundSuccess, r.Status)
	sameAmount(t, "5", r.Amount)
	_, err = ev.Order()
	require.EqualError(t, err, `checkout: read webhook content: REFUND_SUCCEEDED event carries no order (its content holds "refund")`)
}

// With several refunds, Refund is the one created last, whatever their
// order in the list; equal or missing times keep the last listed.
func TestContentRefundLatest(t *testing.T) {
	body := `{"event_name":"ORDER_REFUNDED","content":{"order":{"order_id":"o1","refunds":[
		{"unique_request_id":"r2","status":"PENDING","created":"2023-08-10T07:30:00Z"},
		{"unique_request_id":"r1","status":"SUCCESS","created":"2023-08-10T07:22:01Z"}]}}}`
	ev, err := ParseEvent([]byte(body))
	require.NoError(t, err)
	r, err := ev.Refund()
	require.NoError(t, err)
	require.Equal(t, "r2", r.UniqueRequestID)
	require.Equal(t, time.Date(2023, 8, 10, 7, 30, 0, 0, time.UTC), r.Created.Time)
	order, err := ev.Order()
	require.NoError(t, err)
	require.Len(t, order.Refunds, 2, "every refund is on the order")

	ev, err = ParseEvent([]byte(`{"event_name":"ORDER_REFUNDED","content":{"order":{"refunds":[{"unique_request_id":"a"},{"unique_request_id":"b"}]}}}`))
	require.NoError(t, err)
	r, err = ev.Refund()
	require.NoError(t, err)
	require.Equal(t, "b", r.UniqueRequestID)
}

// An Event built by hand, or whose Content is replaced after decoding, is
// read from its Content.
func TestContentHandBuiltAndReplaced(t *testing.T) {
	ev := &Event{Name: OrderSucceeded, Content: json.RawMessage(` {"order":{"order_id":"h1","status":"CHARGED","amount":"1.00"}} `)}
	order, err := ev.Order()
	require.NoError(t, err)
	require.Equal(t, "h1", order.OrderID)
	require.NoError(t, order.CheckPaid("1"))

	ev.Content = json.RawMessage(`{"order":{"order_id":"h1"`) // not JSON: damaged, not absent
	_, err = ev.Order()
	require.ErrorIs(t, err, ErrMalformedBody)
	require.NotErrorIs(t, err, ErrNoContent)

	parsed, err := ParseEvent([]byte(`{"event_name":"TXN_FAILED","content":{"txn":{"txn_id":"t1"}}}`))
	require.NoError(t, err)
	parsed.Content = json.RawMessage(`{"mandate":{"mandate_id":"m2","status":"ACTIVE"}}`)
	m, err := parsed.Mandate()
	require.NoError(t, err)
	require.Equal(t, "m2", m.MandateID)
	_, err = parsed.Transaction()
	require.ErrorIs(t, err, ErrNoContent)
}

// The typed content of a parsed event does not share memory with the body:
// the caller may reuse its buffer.
func TestContentIsCopied(t *testing.T) {
	body := []byte(`{"event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"c1","status":"CHARGED"}}}`)
	ev, err := ParseEvent(body)
	require.NoError(t, err)
	order, err := ev.Order()
	require.NoError(t, err)
	for i := range body {
		body[i] = 'x'
	}
	require.Equal(t, "c1", order.OrderID)
	require.Equal(t, `{"order_id":"c1","status":"CHARGED"}`, string(order.Raw))
	require.True(t, errors.Is(&ContentError{Err: errors.New("x")}, ErrMalformedBody))
}

// accessorErr calls the typed accessor of ev that returns want ("order",
// "transaction", "mandate" or "refund", as in ContentError.Want) and
// returns its error, so that a test can check several accessors alike.
func accessorErr(ev *Event, want string) error {
	var err error
	switch want {
	case "order":
		_, err = ev.Order()
	case "transaction":
		_, err = ev.Transaction()
	case "mandate":
		_, err = ev.Mandate()
	case "refund":
		_, err = ev.Refund()
	default:
		panic("accessorErr: no accessor returns " + want)
	}
	return err
}

// sameAmount compares amounts as decimals: the service writes 8, "8" or
// "8.00" for the same sum.
func sameAmount(t *testing.T, want string, got checkout.Amount) {
	t.Helper()
	w, ok := new(big.Rat).SetString(want)
	require.True(t, ok, "want %q is a decimal", want)
	g, ok := new(big.Rat).SetString(string(got))
	require.True(t, ok, "got %q is a decimal", got)
	require.Zero(t, w.Cmp(g), "amount %q, want %q", got, want)
}

// Content that is there but damaged (not an object, or its key holding no
// object) is ErrMalformedBody, never ErrNoContent: a handler that
// acknowledges events without such content must not acknowledge a damaged
// ORDER_SUCCEEDED, which the service would then never re-send.
func TestContentDamagedIsNotAbsent(t *testing.T) {
	for _, content := range []string{`{"order":5}`, `{"order":"x"}`, `{"order":null}`, `"x"`, `[1]`} {
		ev := &Event{Name: OrderSucceeded, Content: json.RawMessage(content)}
		_, err := ev.Order()
		require.ErrorIs(t, err, ErrMalformedBody, content)
		require.NotErrorIs(t, err, ErrNoContent, content)
	}
	for want, ev := range map[string]*Event{
		"transaction": {Name: TxnFailed, Content: json.RawMessage(`{"txn":7}`)},
		"mandate":     {Name: MandateCreated, Content: json.RawMessage(`{"mandate":"m"}`)},
		"refund":      {Name: OrderRefunded, Content: json.RawMessage(`{"refund":[]}`)},
	} {
		require.ErrorIs(t, accessorErr(ev, want), ErrMalformedBody, ev.Name)
	}
	// Absent stays absent.
	_, err := (&Event{Name: "SOMETHING_NEW", Content: json.RawMessage(`{"notification":{}}`)}).Order()
	require.ErrorIs(t, err, ErrNoContent)
	_, err = (&Event{Name: "SOMETHING_NEW"}).Order()
	require.ErrorIs(t, err, ErrNoContent)
}

// checkAgainstRef checks the helpers of ev against the typed accessors,
// the one reading of content: OrderID and Status are what the accessor of
// Kind gives, Field matches keys as encoding/json does (the last of the
// keys equal without regard to case), and DecodeContent reads the object
// of Kind.
func checkAgainstRef(t *testing.T, ev *Event) {
	t.Helper()
	id, st := "", ""
	switch ev.Kind() {
	case "order":
		if o, err := ev.Order(); err == nil {
			id, st = o.OrderID, string(o.Status)
		}
	case "txn":
		if x, err := ev.Transaction(); err == nil {
			id, st = x.OrderID, string(x.Status)
		}
	case "mandate":
		if m, err := ev.Mandate(); err == nil {
			id, st = m.OrderID, m.Status
		}
	case "refund":
		if r, err := ev.Refund(); err == nil {
			id, st = r.OrderID, string(r.Status)
		}
	case "notification":
		if n, err := ev.Notification(); err == nil {
			st = n.Status
		}
	default:
		var f struct {
			OrderID json.RawMessage `json:"order_id"`
			Status  json.RawMessage `json:"status"`
		}
		var m map[string]any
		if ev.DecodeContent(&m) == nil {
			require.NoError(t, ev.DecodeContent(&f))
		}
		id, st = scalarText(f.OrderID), scalarText(f.Status)
	}
	require.Equal(t, id, ev.OrderID(), "order_id of %s", ev.Content)
	require.Equal(t, st, ev.Status(), "status of %s", ev.Content)
	require.Equal(t, "", ev.Field("\x00no such field"))
	var got map[string]json.RawMessage
	err := ev.DecodeContent(&got)
	if ev.Kind() == "" {
		require.ErrorIs(t, err, ErrMalformedBody)
		return
	}
	require.NoError(t, err)
	var f struct {
		OrderID json.RawMessage `json:"order_id"`
	}
	require.NoError(t, ev.DecodeContent(&f))
	require.Equal(t, scalarText(f.OrderID), ev.Field("order_id"), "Field reads keys as encoding/json does")
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
	// Keys equal but for case: encoding/json keeps the last (issue 26).
	`{"order":{"order_id":"ord_A","ORDER_ID":"ord_B","status":"PENDING_VBV","Status":"CHARGED"}}`,
	`{"ORDER":{"order_id":"upper"},"payout":{"order_id":"p"}}`,
}

// The helpers and the typed order give one answer on keys that collide by
// case (issue 26 item 5).
func TestHelpersAgreeWithOrderOnCollidingKeys(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_A","ORDER_ID":"ord_B","status":"PENDING_VBV","Status":"CHARGED"}}}`))
	require.NoError(t, err)
	o, err := ev.Order()
	require.NoError(t, err)
	require.Equal(t, "ord_B", o.OrderID)
	require.Equal(t, checkout.Status("CHARGED"), o.Status)
	require.Equal(t, [3]string{"order", "ord_B", "CHARGED"}, [3]string{ev.Kind(), ev.OrderID(), ev.Status()})
	require.Equal(t, "ord_B", ev.Field("order_id"))
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
		checkAgainstRef(t, parsed)
		// The same content in an Event built by hand.
		checkAgainstRef(t, &Event{Name: "X", Content: json.RawMessage(c)})
	}
}

// A hand-built Event with content that is not valid JSON holds no object,
// as before.
func TestSubjectInvalidContent(t *testing.T) {
	for _, c := range []string{`{"order":{"order_id":"x"}`, `{"order":{"order_id":"x"}} trailing`, `{"order":{"order_id":x}}`, `{`, `{"a"`, `{"a":}`} {
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

// FuzzSubject: on any valid content the helpers agree with the typed
// accessors, for a parsed and a hand-built Event, and on any
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
		checkAgainstRef(t, hand)
		parsed, err := ParseEvent([]byte(`{"event_name":"X","content":` + string(content) + `}`))
		if err != nil {
			t.Fatalf("valid content refused: %v", err)
		}
		checkAgainstRef(t, parsed)
	})
}
