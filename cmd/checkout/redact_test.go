package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

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

// A malformed --webhook-headers item is named by its position (and its
// header name, when it has one), never echoed: its value is a secret, and
// an item without "=" may be the tail of a value holding a comma.
func TestMalformedWebhookHeaderIsNotEchoed(t *testing.T) {
	for item, want := range map[string]string{
		"X-Shop-Key:hdr-secret-1":     `--webhook-headers: item 2 (X-Shop-Key) is not Name=value`,
		"hdr-secret-2":                `--webhook-headers: item 2 is not Name=value`,
		"=hdr-secret-3":               `--webhook-headers: item 2 is not Name=value`,
		"X Shop:hdr-secret-4":         `--webhook-headers: item 2 is not Name=value`,
		" X-Shop-Key : hdr-secret-5 ": `--webhook-headers: item 2 (X-Shop-Key) is not Name=value`,
	} {
		r := cli(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, "fake", "--webhook-headers", "X-Env=prod,"+item)
		require.Equal(t, 2, r.code, r.stderr)
		require.Contains(t, r.stderr, want, item)
		require.NotContains(t, r.stderr, "hdr-secret", item)
	}
}
