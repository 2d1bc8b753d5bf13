package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/webhook"
	"github.com/stretchr/testify/require"
)

// A standalone fake, driven from outside: orders are made over HTTP, the
// trigger command moves them, the webhooks reach the test's receiver with
// the configured credentials, and SIGTERM stops the fake cleanly.
func TestFakeTriggerWebhook(t *testing.T) {
	const hookUser, hookPass, responseKey = "clishop", "hook pass 1", "resp_key_cli"
	v, err := webhook.NewVerifier(webhook.Config{Username: hookUser, Password: hookPass,
		Sources: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	require.NoError(t, err)
	events := make(chan *webhook.Event, 16)
	receiver := httptest.NewServer(v.Handler(func(_ context.Context, ev *webhook.Event) error { events <- ev; return nil }))
	defer receiver.Close()
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) }))
	defer refusing.Close()

	// The API key and the webhook password come from the environment.
	base, fake, fakeOut, _ := startFake(t,
		[]string{"CHECKOUT_FAKE_API_KEY=cli_key", "CHECKOUT_WEBHOOK_PASSWORD=" + hookPass},
		"--merchant-id", "cli_shop", "--webhook-url", receiver.URL, "--webhook-user", hookUser, "--response-key", responseKey)
	require.Contains(t, fakeOut.String(), "serving merchant cli_shop at "+base)
	fakeEnv := []string{"CHECKOUT_FAKE_URL=" + base}

	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"cli/1"}, "amount": {"10.00"}, "return_url": {"https://shop.example/back"}})
	r := cli(t, fakeEnv, "trigger", "pay", "--order", "cli/1")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "order cli/1: CHARGED (status_id 21)")
	require.Contains(t, r.stdout, "webhook ORDER_SUCCEEDED evt_")
	require.Contains(t, r.stdout, "delivered to "+receiver.URL)
	ev := <-events
	require.Equal(t, "ORDER_SUCCEEDED", ev.Name)
	require.Equal(t, "cli/1", ev.OrderID())

	// The printed redirect is signed with the response key.
	i := strings.Index(r.stdout, "return_url redirect: ")
	require.GreaterOrEqual(t, i, 0, r.stdout)
	ret, err := url.Parse(strings.TrimSpace(strings.SplitN(r.stdout[i+len("return_url redirect: "):], "\n", 2)[0]))
	require.NoError(t, err)
	rr, err := checkout.VerifyReturn(ret.Query(), responseKey)
	require.NoError(t, err)
	require.Equal(t, "CHARGED", rr.Status)

	// refund: the merchant asks for it over the API, the trigger completes it.
	call(t, http.MethodPost, base+"/orders/"+url.PathEscape("cli/1")+"/refunds", url.Values{"unique_request_id": {"rf_1"}, "amount": {"4.00"}})
	r = cli(t, nil, "trigger", "refund", "--order", "cli/1", "--fake", base, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var res struct {
		Status     string `json:"status"`
		Deliveries []struct {
			EventName string `json:"event_name"`
			Notified  bool   `json:"notified"`
		} `json:"deliveries"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &res))
	require.True(t, strings.HasSuffix(r.stdout, "}\n"), "--json ends its one line: %q", r.stdout)
	require.Equal(t, 1, strings.Count(r.stdout, "\n"))
	require.Equal(t, "CHARGED", res.Status)
	require.Equal(t, "ORDER_REFUNDED", res.Deliveries[0].EventName)
	require.True(t, res.Deliveries[0].Notified)
	require.Equal(t, "ORDER_REFUNDED", (<-events).Name)

	// fail, on an order with its own webhook URL that keeps answering 500:
	// the move happens, the trigger says the webhook was not taken.
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"cli_2"}, "amount": {"5.00"}, "metadata.webhook_url": {refusing.URL}})
	r = cli(t, fakeEnv, "trigger", "fail", "--order", "cli_2")
	require.Equal(t, 1, r.code, r.stdout)
	require.Contains(t, r.stdout, "order cli_2: AUTHORIZATION_FAILED (status_id 27)")
	require.Contains(t, r.stderr, "webhook ORDER_FAILED")
	require.Contains(t, r.stderr, "not acknowledged: last status 500; gave up after 10 attempts\n")
	require.Equal(t, 1, strings.Count(r.stderr, "attempts"), "the attempts are counted once: %s", r.stderr)

	// A web page the developer visits cannot drive it: no control header,
	// a foreign Origin.
	resp, err := http.Post(base+"/__checkouttest/orders/cli_2/pay", "text/plain", strings.NewReader("x"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	require.Equal(t, "1", resp.Header.Get("X-Checkout-Fake"), "the fake says it is one")

	// The fake refuses what the order cannot do.
	r = cli(t, fakeEnv, "trigger", "pay", "--order", "cli/1")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "invalid transition")
	r = cli(t, fakeEnv, "trigger", "pay", "--order", "nope")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "unknown order")
	r = cli(t, []string{"CHECKOUT_FAKE_URL=http://" + freeAddr(t)}, "trigger", "pay", "--order", "x")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "is the fake running?")

	// SIGTERM: a clean stop with status 0.
	require.NoError(t, fake.Process.Signal(syscall.SIGTERM))
	waited := make(chan error, 1)
	go func() { waited <- fake.Wait() }()
	select {
	case err := <-waited:
		require.NoError(t, err, "exit status 0")
	case <-time.After(30 * time.Second):
		t.Fatal("the fake did not stop after SIGTERM")
	}
	require.Contains(t, fakeOut.String(), "checkout fake: shutting down")
	_, err = http.Get(base + "/__checkouttest/health")
	require.Error(t, err, "the port is closed")
}

// checkout trigger sends webhooks more than once on purpose: --duplicates
// on a move, and resend for the order's last event. The receiver sees the
// same event (same id, same body) each time; a receiver with duplicate
// handling, as webhook.Verifier's Handler has, acts once and replies 200
// to every copy.
func TestTriggerResendAndDuplicates(t *testing.T) {
	v, err := webhook.NewVerifier(webhook.Config{Username: "dupshop", Password: "dup pass",
		Sources: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	require.NoError(t, err)
	var mu sync.Mutex
	bodies := map[string]int{} // body -> deliveries
	handled := make(chan string, 32)
	h := v.Handler(func(_ context.Context, ev *webhook.Event) error { handled <- ev.ID; return nil })
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies[string(b)]++
		mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		h.ServeHTTP(w, r)
	}))
	defer receiver.Close()
	base, _, _, _ := startFake(t, []string{"CHECKOUT_FAKE_API_KEY=cli_key"},
		"--merchant-id", "cli_shop", "--webhook-url", receiver.URL, "--webhook-user", "dupshop", "--webhook-password", "dup pass")
	env := []string{"CHECKOUT_FAKE_URL=" + base}
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"dup_1"}, "amount": {"3.00"}})

	r := cli(t, env, "trigger", "resend", "--order", "dup_1")
	require.Equal(t, 1, r.code, r.stdout)
	require.Contains(t, r.stderr, "no webhook event was sent for this order yet")

	r = cli(t, env, "trigger", "pay", "--order", "dup_1", "--duplicates", "2")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, 3, strings.Count(r.stdout, "webhook ORDER_SUCCEEDED evt_"), r.stdout)
	eventID := <-handled
	mu.Lock()
	require.Len(t, bodies, 1, "one event")
	for _, n := range bodies {
		require.Equal(t, 3, n, "delivered three times")
	}
	mu.Unlock()

	r = cli(t, env, "trigger", "resend", "--order", "dup_1", "--times", "2")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "order dup_1: CHARGED (status_id 21)\n")
	require.Equal(t, 2, strings.Count(r.stdout, "webhook ORDER_SUCCEEDED "+eventID+": delivered to "+receiver.URL), r.stdout)
	mu.Lock()
	require.Len(t, bodies, 1, "the same body")
	for _, n := range bodies {
		require.Equal(t, 5, n)
	}
	mu.Unlock()
	select {
	case id := <-handled:
		t.Fatalf("the receiver acted on %s again: its duplicate handling failed", id)
	default: // every copy was answered 200 before trigger returned, none acted on
	}
}

// trigger pay --amount settles another amount, which the order then
// reports; without a webhook URL, --json says so in the command's words.
func TestTriggerAmountWithoutWebhookURL(t *testing.T) {
	base, _, _, _ := startFake(t, []string{"CHECKOUT_MERCHANT_ID=cli_shop", "CHECKOUT_FAKE_API_KEY=cli_key"})
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"amt_1"}, "amount": {"100.00"}})
	r := cli(t, []string{"CHECKOUT_FAKE_URL=" + base}, "trigger", "pay", "--order", "amt_1", "--amount", "90.00", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, `"error":"no webhook URL: give the fake --webhook-url, or the order metadata.webhook_url"`)
	require.NotContains(t, r.stdout, "Config.Webhook")
	st := call(t, http.MethodGet, base+"/orders/amt_1", nil)
	require.EqualValues(t, 90, st["amount"])
	require.Equal(t, "CHARGED", st["status"])

	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"amt_2"}, "amount": {"100.00"}})
	r = cli(t, []string{"CHECKOUT_FAKE_URL=" + base}, "trigger", "pay", "--order", "amt_2")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "webhook ORDER_SUCCEEDED: not sent, no webhook URL: give the fake --webhook-url")
}

// A webhook URL's secrets never reach the output: "checkout fake" and
// "checkout trigger" (text and --json) print the URL with its user
// information (a user alone is a token too) and query values replaced.
func TestWebhookURLSecretsAreNotPrinted(t *testing.T) {
	const secret, token, query = "url-secret-pw-4471", "TOKEN-user-only-8", "q-token-5"
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer receiver.Close()
	hook, err := url.Parse(receiver.URL + "/hooks?shop=1&token=" + query)
	require.NoError(t, err)
	hook.User = url.UserPassword("hookuser", secret)
	redacted := strings.Replace(receiver.URL, "http://", "http://xxxxx@", 1) + "/hooks?shop=xxxxx&token=xxxxx"

	base, _, out, errOut := startFake(t, []string{"CHECKOUT_MERCHANT_ID=cli_shop", "CHECKOUT_FAKE_API_KEY=cli_key"},
		"--webhook-url", hook.String(), "--webhook-user", "clishop", "--webhook-password", "pw")
	require.Contains(t, out.String(), "webhooks:  "+redacted+"\n")
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"red_1"}, "amount": {"1.00"}})
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"red_2"}, "amount": {"1.00"}})

	r := cli(t, []string{"CHECKOUT_FAKE_URL=" + base}, "trigger", "pay", "--order", "red_1")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "delivered to "+redacted+" ")
	j := cli(t, []string{"CHECKOUT_FAKE_URL=" + base}, "trigger", "pay", "--order", "red_2", "--json")
	require.Equal(t, 0, j.code, j.stderr)
	require.Contains(t, j.stdout, `"url":"`+redacted+`"`)
	outs := []string{out.String(), errOut.String(), r.stdout, r.stderr, j.stdout, j.stderr}

	// A user alone, on an order's own webhook URL.
	own := strings.Replace(receiver.URL, "http://", "http://"+token+"@", 1) + "/own"
	call(t, http.MethodPost, base+"/orders", url.Values{"order_id": {"red_3"}, "amount": {"1.00"}, "metadata.webhook_url": {own}})
	r = cli(t, []string{"CHECKOUT_FAKE_URL=" + base}, "trigger", "pay", "--order", "red_3")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "delivered to "+strings.Replace(receiver.URL, "http://", "http://xxxxx@", 1)+"/own ")
	outs = append(outs, r.stdout, r.stderr)
	for _, s := range outs {
		for _, secret := range []string{secret, token, query} {
			require.NotContains(t, s, secret)
		}
	}
}

// checkout trigger prints what a fake (which may run anywhere) answers
// with its terminal controls escaped: the result as text and as JSON, the
// deliveries that failed, and a refusal.
func TestTriggerEscapesTheFakesStrings(t *testing.T) {
	res := checkouttest.ControlResult{OrderID: "ord" + hostile, Status: hostile, StatusID: 21,
		ReturnURL: "https://shop.example/back?x=" + hostile,
		Deliveries: []checkouttest.ControlDelivery{
			{EventID: "evt" + hostile, EventName: "ORDER_SUCCEEDED" + hostile, URL: "https://hooks.example/" + hostile, Notified: true, Attempts: 1},
			{EventID: "evt2", EventName: "ORDER" + hostile, URL: "https://hooks.example/2", Attempts: 3, LastStatus: 500, Error: "gave up" + hostile},
		}}
	body, err := json.Marshal(res)
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/refused/") {
			msg, _ := json.Marshal(hostile)
			w.WriteHeader(409)
			_, _ = fmt.Fprintf(w, `{"error":%s}`, msg)
			return
		}
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	env := []string{"CHECKOUT_FAKE_URL=" + srv.URL}

	r := cli(t, env, "trigger", "pay", "--order", "o")
	require.Equal(t, 1, r.code, "a delivery was not acknowledged")
	requireNoTerminalControl(t, r.stdout)
	requireNoTerminalControl(t, r.stderr)
	esc := `\x1b[2J\x1b]0;pwned\x07\u009b1;1H\r\nverified: PAID\u202e`
	require.Contains(t, r.stdout, "order ord"+esc+": "+esc+" (status_id 21)\n")
	require.Contains(t, r.stdout, "webhook ORDER_SUCCEEDED"+esc+" evt"+esc+": delivered to (not a URL with a host)")
	require.Equal(t, 3, strings.Count(r.stdout, "\n"), "no line forged: %s", r.stdout)
	require.Contains(t, r.stderr, "gave up"+esc)
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), "no line forged: %s", r.stderr)

	r = cli(t, env, "trigger", "pay", "--order", "o", "--json")
	requireNoTerminalControl(t, r.stdout)
	var got checkouttest.ControlResult
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got), r.stdout)
	require.Equal(t, res.Status, got.Status, "the same JSON, escaped")
	require.Equal(t, res.Deliveries[1].Error, got.Deliveries[1].Error)

	r = cli(t, env, "trigger", "fail", "--order", "refused")
	require.Equal(t, 1, r.code)
	requireNoTerminalControl(t, r.stderr)
	require.Equal(t, "checkout trigger: "+esc+"\n", r.stderr)
}

// trigger fault arms a fault in a running fake for a client not written in
// Go: here one that makes the order and answers 502 instead of its reply.
func TestTriggerFault(t *testing.T) {
	base, _, _, _ := startFake(t, []string{"CHECKOUT_MERCHANT_ID=cli_shop", "CHECKOUT_FAKE_API_KEY=cli_key"})
	env := []string{"CHECKOUT_FAKE_URL=" + base}
	r := cli(t, env, "trigger", "fault", "--method", "POST", "--path", "/orders", "--status", "502", "--after")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "fault armed: POST /orders, the next 1 request: status 502 after processing\n", r.stdout)

	req, err := http.NewRequest(http.MethodPost, base+"/orders", strings.NewReader("order_id=flt_1&amount=10.00"))
	require.NoError(t, err)
	req.SetBasicAuth("cli_key", "")
	req.Header.Set("x-merchantid", "cli_shop")
	req.Header.Set("version", "2023-06-30")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 502, resp.StatusCode)
	st := call(t, http.MethodGet, base+"/orders/flt_1", nil)
	require.Equal(t, "CREATED", st["status"], "the order was made though its reply was lost")

	r = cli(t, env, "trigger", "fault", "--path", "/orders/*", "--drop", "--times", "2", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.JSONEq(t, `{"method":"","path":"/orders/*","times":2,"fault":"drop"}`, r.stdout)

	r = cli(t, env, "trigger", "fault", "--path", "/orders", "--after", "--delay", "1s")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "checkout trigger: fault for /orders loses no reply after processing")
}
