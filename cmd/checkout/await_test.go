package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

// checkout await, run as a program against "checkout fake": 0 once the
// order is paid, 1 when it fails or is unknown, 2 on a usage error.
func TestAwaitExitStatus(t *testing.T) {
	base, _, _, _ := startFake(t, nil, "--merchant-id", "cli_shop", "--api-key", "cli_key")
	env := []string{"CHECKOUT_BASE_URL=" + base, "CHECKOUT_MERCHANT_ID=cli_shop", "CHECKOUT_API_KEY=cli_key"}
	for _, id := range []string{"aw-paid", "aw-failed", "aw-new"} {
		call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {id}, "amount": {"10.00"}})
	}
	move := func(id, action string) {
		time.Sleep(200 * time.Millisecond) // a few polls first
		req, _ := http.NewRequest(http.MethodPost, base+"/__checkouttest/orders/"+id+"/"+action, nil)
		req.Header.Set(checkouttest.ControlHeader, "1")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}

	go move("aw-paid", "pay")
	r := cli(t, env, "await", "aw-paid", "--amount", "10.00", "--intervals", "50ms")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "order aw-paid: CHARGED (amount 10.00 INR)\n", r.stdout)

	go move("aw-failed", "fail")
	r = cli(t, env, "await", "aw-failed", "--amount", "10.00", "--intervals", "50ms", "--json")
	require.Equal(t, 1, r.code, r.stderr)
	require.Contains(t, r.stdout, `"status":"AUTHORIZATION_FAILED"`)

	r = cli(t, env, "await", "nope", "--any-amount", "--intervals", "50ms")
	require.Equal(t, 1, r.code)
	require.True(t, strings.HasPrefix(r.stderr, `checkout await: checkout: await final: order "nope"`), r.stderr)

	r = cli(t, env, "await", "aw-new", "--amount", "10.00", "--intervals", "50ms", "--timeout", "1s")
	require.Equal(t, 1, r.code)
	require.Equal(t, "order aw-new: CREATED (amount 10.00 INR)\n", r.stdout, "the last status seen")
	require.Contains(t, r.stderr, "context deadline exceeded (--timeout 1s)")

	for _, args := range [][]string{{"await"}, {"await", "a", "b"}, {"await", "a", "--amount", "1.00", "--intervals", "soon"},
		{"await", "a"}, {"await", "a", "--amount", "ten"}, {"await", "a", "--amount", "1.00", "--any-amount"}} {
		r = cli(t, env, args...)
		require.Equal(t, 2, r.code, args)
		require.True(t, strings.HasPrefix(r.stderr, "checkout await: "), r.stderr)
	}
	r = cli(t, nil, "await", "a", "--amount", "1.00")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "--base-url (or --fake), --merchant-id (CHECKOUT_MERCHANT_ID), --api-key (CHECKOUT_API_KEY) are required",
		"every missing flag at once, with its variable")
	r = cli(t, []string{"CHECKOUT_FAKE_URL=http://127.0.0.1:1"}, "await", "a", "--amount", "1.00")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "--merchant-id (CHECKOUT_MERCHANT_ID), --api-key (CHECKOUT_FAKE_API_KEY) are required")
}

// "paid" means what CheckPaid means: an order settled for less than
// --amount is not paid (exit 1, saying why); --any-amount takes any
// CHARGED order. The fake is found by CHECKOUT_FAKE_URL, with the fake's
// own key, never a production client's.
func TestAwaitPaidMeansCheckPaid(t *testing.T) {
	base, _, _, _ := startFake(t, nil, "--merchant-id", "cli_shop", "--api-key", "cli_key")
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"aw-under"}, "amount": {"100.00"}})
	req, _ := http.NewRequest(http.MethodPost, base+"/__checkouttest/orders/aw-under/pay?amount=90.00", nil)
	req.Header.Set(checkouttest.ControlHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()

	env := []string{"CHECKOUT_FAKE_URL=" + base, "CHECKOUT_MERCHANT_ID=cli_shop", "CHECKOUT_FAKE_API_KEY=cli_key",
		"CHECKOUT_API_KEY=sk_live_production"}
	r := cli(t, env, "await", "aw-under", "--amount", "100.00")
	require.Equal(t, 1, r.code, r.stderr)
	require.Contains(t, r.stderr, "amount is 90.00, expected 100.00", "says why")
	r = cli(t, env, "await", "aw-under", "--amount", "90.00")
	require.Equal(t, 0, r.code, r.stderr)
	r = cli(t, env, "await", "aw-under", "--any-amount")
	require.Equal(t, 0, r.code, r.stderr)
}

// hostile is text a service could put in a reply to take over the
// terminal that prints it: clear the screen, set the window title, move
// the cursor home with a C1 CSI, forge a line, reverse the text after it.
const hostile = "\x1b[2J\x1b]0;pwned\x07\u009b1;1H\r\nverified: PAID\u202e"

// requireNoTerminalControl fails when s holds a terminal control other
// than the line feed and the tab, or a byte that is not UTF-8.
func requireNoTerminalControl(t *testing.T, s string) {
	t.Helper()
	require.True(t, utf8.ValidString(s), "%q", s)
	for _, r := range s {
		require.False(t, r != '\n' && r != '\t' && terminalControl(r), "%U reached the terminal in %q", r, s)
	}
}

// checkout await prints the service's strings with their terminal
// controls escaped, as text and as JSON (which stays JSON of the same
// meaning), and in its error.
func TestAwaitEscapesTheServicesStrings(t *testing.T) {
	replies := map[string][]byte{}
	for id, status := range map[string]string{"aw-evil": hostile, "aw-final": "AUTHORIZATION_FAILED"} {
		b, err := json.Marshal(map[string]any{"order_id": id, "id": "ordeh_1", "status": status,
			"status_id": 23, "amount": "10.00", "currency": "INR" + hostile})
		require.NoError(t, err)
		replies[id] = b
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		reply, ok := replies[strings.TrimPrefix(r.URL.Path, "/orders/")]
		if !ok {
			w.WriteHeader(400)
			msg, _ := json.Marshal(hostile)
			_, _ = fmt.Fprintf(w, `{"status":"ERROR","error_code":"BAD","error_message":%s}`, msg)
			return
		}
		_, _ = w.Write(append(bytes.ReplaceAll(reply, []byte(`,`), []byte(",\r\n")), "\r\n"...))
	}))
	defer srv.Close()
	env := []string{"CHECKOUT_BASE_URL=" + srv.URL, "CHECKOUT_MERCHANT_ID=m", "CHECKOUT_API_KEY=k"}
	esc := `\x1b[2J\x1b]0;pwned\x07\u009b1;1H\r\nverified: PAID\u202e`

	r := cli(t, env, "await", "aw-final", "--any-amount")
	require.Equal(t, 1, r.code, r.stderr)
	requireNoTerminalControl(t, r.stdout)
	require.Equal(t, "order aw-final: AUTHORIZATION_FAILED (amount 10.00 INR"+esc+")\n", r.stdout)

	r = cli(t, env, "await", "aw-final", "--any-amount", "--json")
	require.Equal(t, 1, r.code, r.stderr)
	requireNoTerminalControl(t, r.stdout)
	var got, want map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got), r.stdout)
	require.NoError(t, json.Unmarshal(replies["aw-final"], &want))
	require.Equal(t, want, got, "the same JSON, escaped")

	// A status that is not final: the last one seen, and the error naming it.
	r = cli(t, env, "await", "aw-evil", "--any-amount", "--intervals", "20ms", "--timeout", "1500ms")
	require.Equal(t, 1, r.code, r.stderr)
	requireNoTerminalControl(t, r.stdout)
	requireNoTerminalControl(t, r.stderr)
	require.Equal(t, "order aw-evil: "+esc+" (amount 10.00 INR"+esc+")\n", r.stdout)
	require.Contains(t, r.stderr, "pwned", "the status, its controls taken out")
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), "no line forged: %s", r.stderr)

	r = cli(t, env, "await", "refused", "--any-amount")
	require.Equal(t, 1, r.code)
	requireNoTerminalControl(t, r.stderr)
	require.Contains(t, r.stderr, "pwned")
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), "no line forged: %s", r.stderr)
}
