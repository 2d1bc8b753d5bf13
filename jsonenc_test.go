package checkout

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func stdString(t testing.TB, s string) string {
	t.Helper()
	b, err := marshalNoEscape(s)
	require.NoError(t, err)
	return string(b)
}

// Whatever text the fields hold, the hand-written session body is valid
// JSON and decodes back to the same values.
func FuzzSessionEncodeRoundTrip(f *testing.F) {
	f.Add("ord_1", "Asha <a&b>", "https://shop.example.com/r?a=1&b=2", "x\u2028y")
	f.Add("\x00", "\"quoted\"", "", "\\")
	f.Fuzz(func(t *testing.T, orderID, description, returnURL, extra string) {
		r := baseSession()
		r.OrderID, r.Description, r.ReturnURL = orderID, description, returnURL
		r.Extra = map[string]any{"udf1": extra}
		body, err := r.encode()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("invalid JSON %q: %v", body, err)
		}
		want := func(s string) string { // what encoding/json makes of s
			var out string
			if err := json.Unmarshal([]byte(stdString(t, s)), &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
		if orderID != "" && m["order_id"] != want(orderID) {
			t.Fatalf("order_id %q", m["order_id"])
		}
		if description != "" && m["description"] != want(description) {
			t.Fatalf("description %q", m["description"])
		}
		if m["udf1"] != want(extra) {
			t.Fatalf("udf1 %q", m["udf1"])
		}
	})
}
