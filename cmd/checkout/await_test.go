package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

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

	r = cli(t, env, "await", "aw-new", "--amount", "10.00", "--timeout", "100ms")
	require.Equal(t, 1, r.code)
	require.Equal(t, "order aw-new: CREATED (amount 10.00 INR)\n", r.stdout, "the last status seen")
	require.Contains(t, r.stderr, "context deadline exceeded (--timeout 100ms)")

	for _, args := range [][]string{{"await"}, {"await", "a", "b"}, {"await", "a", "--amount", "1.00", "--intervals", "soon"},
		{"await", "a"}, {"await", "a", "--amount", "ten"}, {"await", "a", "--amount", "1.00", "--any-amount"}} {
		r = cli(t, env, args...)
		require.Equal(t, 2, r.code, args)
		require.True(t, strings.HasPrefix(r.stderr, "checkout await: "), r.stderr)
	}
	r = cli(t, nil, "await", "a", "--amount", "1.00")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "--base-url (or --fake) is required")
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
