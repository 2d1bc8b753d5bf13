package checkouttest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/checkouttest"
)

func TestConfigErrors(t *testing.T) {
	ok := checkouttest.Config{MerchantID: "m", APIKey: "k"}
	tests := []struct {
		name   string
		change func(c *checkouttest.Config)
		want   string
	}{
		{"no merchant id", func(c *checkouttest.Config) { c.MerchantID = "" }, "MerchantID"},
		{"no api key", func(c *checkouttest.Config) { c.APIKey = "" }, "APIKey"},
		{"http webhook URL off loopback", func(c *checkouttest.Config) { c.Webhook.URL = "http://shop.example/h" }, "Webhook.URL"},
		{"relative webhook URL", func(c *checkouttest.Config) { c.Webhook.URL = "/h" }, "Webhook.URL"},
		{"username with a dot", func(c *checkouttest.Config) { c.Webhook.Username = "shop.user"; c.Webhook.Password = "p" }, "Webhook.Username"},
		{"password without username", func(c *checkouttest.Config) { c.Webhook.Password = "p" }, "Webhook.Username"},
		{"Authorization custom header", func(c *checkouttest.Config) { c.Webhook.Headers = map[string]string{"authorization": "x"} }, "Webhook.Headers[authorization]"},
		{"bad header name", func(c *checkouttest.Config) { c.Webhook.Headers = map[string]string{"X Shop": "x"} }, "Webhook.Headers[X Shop]"},
		{"lower-case event", func(c *checkouttest.Config) { c.Webhook.Events = []string{"order_succeeded"} }, "Webhook.Events[0]"},
		{"negative retry", func(c *checkouttest.Config) { c.Webhook.RetryInterval = -1 }, "Webhook.RetryInterval"},
		{"gateway without reference", func(c *checkouttest.Config) { c.Gateways = []checkouttest.Gateway{{Name: "PAYU"}} }, "Gateways[0].ReferenceID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.change(&c)
			err := c.Validate()
			require.ErrorContains(t, err, tt.want)
			require.PanicsWithError(t, err.Error(), func() { checkouttest.NewServer(c) })
		})
	}
	err := (checkouttest.Config{MerchantID: "m", APIKey: "k", Gateways: []checkouttest.Gateway{
		{Name: "PAYU", ReferenceID: "a"}, {Name: "RAZORPAY", ReferenceID: "a"}, {Name: "PAYU", ReferenceID: "a"},
	}}).Validate()
	require.ErrorIs(t, err, checkouttest.ErrDuplicateReference)
	require.ErrorContains(t, err, "Gateways[2]")
}

func TestNoSecretsInFormatting(t *testing.T) {
	secrets := []string{apiKey, "hook-pass-77", "tok-secret-3", "url-user-tok-1", "url-pw-2", "q-secret-4", "frag-5"}
	cfg := checkouttest.Config{MerchantID: merchantID, APIKey: apiKey, Hosts: []string{"shop.test"}, OrderExpiry: 7 * time.Minute, Webhook: checkouttest.WebhookConfig{
		URL:      "https://url-user-tok-1:url-pw-2@hooks.example/in?shop=s1&token=q-secret-4#frag-5",
		Username: "shopuser", Password: "hook-pass-77", Headers: map[string]string{"X-Token": "tok-secret-3"},
	}}
	s := newServer(t, cfg)
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		for _, v := range []any{cfg, cfg.Webhook, s, &cfg, &cfg.Webhook} {
			outs = append(outs, fmt.Sprintf(verb, v))
		}
	}
	for _, v := range []any{cfg, cfg.Webhook} {
		j, err := json.Marshal(v)
		require.NoError(t, err)
		var buf bytes.Buffer
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "v", v)
		slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "v", v)
		outs = append(outs, string(j), buf.String())
	}
	for _, out := range outs {
		for _, secret := range secrets {
			require.NotContains(t, out, secret)
		}
	}
	require.Contains(t, fmt.Sprint(cfg), "https://xxxxx@hooks.example/in?shop=xxxxx&token=xxxxx#xxxxx")
	require.Contains(t, fmt.Sprint(cfg), merchantID)
	require.Contains(t, fmt.Sprint(cfg), "X-Token")
	require.Contains(t, fmt.Sprint(cfg), `Hosts: ["shop.test"], OrderExpiry: 7m0s`)
	require.Equal(t, "checkouttest.Server("+s.URL+")", fmt.Sprint(s))
}

// RedactURL keeps what tells a URL apart and drops what may be a
// credential: the user information (a user alone too), query values and
// the fragment.
func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                      "",
		"https://hooks.example/in":              "https://hooks.example/in",
		"https://TOKEN-1@hooks.example/in":      "https://xxxxx@hooks.example/in",
		"https://u:PW-2@hooks.example/in?a=b&c": "https://xxxxx@hooks.example/in?a=xxxxx&xxxxx",
		"http://127.0.0.1:3000/h?sig=S%2F3":     "http://127.0.0.1:3000/h?sig=xxxxx",
		"user:pw-secret@127.0.0.1:8080":         "(not a URL with a host)",
		"http://[::1]:namedport":                "(not a URL with a host)",
	} {
		require.Equal(t, want, checkouttest.RedactURL(in), in)
	}
}
