package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/testio"
)

func noEnv(string) string { return "" }

// runMainEnv makes the test binary run main instead of the tests, so that
// TestMainExitCode can see main's exit status and output.
const runMainEnv = "QUICKSTART_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestMainExitCode runs main as `go run ./examples/quickstart` would:
// exit 0 after the last step with no environment set, exit 1 with a
// message on stderr when the environment is half set.
func TestMainExitCode(t *testing.T) {
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CHECKOUT_") {
			base = append(base, kv)
		}
	}
	for _, tt := range []struct {
		name  string
		env   []string
		code  int
		out   string
		inErr string
	}{
		{"no environment", nil, 0, "Done.\n", ""},
		{"half an environment", []string{checkout.EnvBaseURL + "=https://api.example.com"}, 1, "", "quickstart: FAILED: set all of"},
		{"a payment page client id", []string{envPaymentPageClientID + "=shop_page_main"}, 0, "Done.\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			cmd.Env = append(append([]string{runMainEnv + "=1"}, base...), tt.env...)
			r := testio.Run(t, cmd)
			require.Equal(t, tt.code, r.Code, "stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
			require.True(t, strings.HasSuffix(r.Stdout, tt.out), r.Stdout)
			require.Contains(t, r.Stderr, tt.inErr)
			if tt.code == 0 {
				want := fakePaymentPageClientID
				if len(tt.env) > 0 {
					want = strings.TrimPrefix(tt.env[0], envPaymentPageClientID+"=")
				}
				require.Contains(t, r.Stdout, "payment page client id "+want+")\n", "read from the environment")
			}
		})
	}
}

func TestRunAgainstTheFake(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, noEnv))
	text := out.String()

	steps := regexp.MustCompile(`(?m)^(\d)\. `).FindAllStringSubmatch(text, -1)
	require.Len(t, steps, 7, text)
	for i, s := range steps {
		require.Equal(t, string(rune('1'+i)), s[1])
	}
	require.Regexp(t, `(?m)^1\. Started the embedded fake service \(checkouttest\) at http://127\.0\.0\.1:\d+$`, text)
	require.Regexp(t, `(?m)^2\. Created session for order qs-\w+ \(status NEW, id ordeh_[0-9a-f]{32}, payment page client id quickstart\)$`, text)
	require.Regexp(t, `(?m)^4\. Created order qs-\w+-links \(status CREATED, status_id 1\)$`, text)
	require.Regexp(t, `(?m)^   QR link \(15 min\):     http://127\.0\.0\.1:\d+/links/qr/ordeh_\w+\?expires_at=`, text)
	require.Regexp(t, `(?m)^   INTENT link \(30 min\): http://127\.0\.0\.1:\d+/links/intent/ordeh_\w+\?expires_at=`, text)
	require.Regexp(t, `(?m)^   Verified webhook evt_V2_[0-9a-f]{32}: event ORDER_SUCCEEDED for order qs-\w+-links, status CHARGED$`, text)
	require.Regexp(t, `(?m)^6\. Order qs-\w+-links status: CHARGED \(status_id 21\), amount 499\.00 INR$`, text)

	// The printed sdk_payload is the JSON the app gets, with the filter,
	// the EMI switch and the product summary echoed.
	start := strings.Index(text, "    {")
	end := strings.Index(text, "\n3. ")
	require.Positive(t, start)
	var payload struct {
		RequestID string `json:"requestId"`
		Payload   struct {
			ClientID       string         `json:"clientId"`
			PaymentFilter  map[string]any `json:"paymentFilter"`
			SDKUdf         string         `json:"sdkUdf"`
			ProductSummary string         `json:"productSummary"`
		} `json:"payload"`
	}
	require.NoError(t, json.Unmarshal([]byte(text[start:end]), &payload))
	id, err := uuid.Parse(payload.RequestID)
	require.NoError(t, err)
	require.Equal(t, uuid.Version(4), id.Version())
	require.Equal(t, "quickstart", payload.Payload.ClientID, "the fake's default payment_page_client_id")
	require.Equal(t, "showEMI", payload.Payload.SDKUdf)
	require.Contains(t, payload.Payload.PaymentFilter, "emiOptions")
	require.Contains(t, payload.Payload.ProductSummary, `"type":"divider"`)
}

// TestRunAgainstAnEnvironment plays the real environment with another fake:
// the quickstart must use it through the three variables and skip the
// fake-only steps.
func TestRunAgainstAnEnvironment(t *testing.T) {
	env := checkouttest.NewServer(checkouttest.Config{MerchantID: "live_shop", APIKey: "live_key"})
	defer env.Close()
	vars := map[string]string{checkout.EnvBaseURL: env.URL, checkout.EnvMerchantID: "live_shop", checkout.EnvAPIKey: "live_key",
		envPaymentPageClientID: "live_shop_page"}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	require.NoError(t, run(ctx, &out, func(k string) string { return vars[k] }))
	text := out.String()
	require.Contains(t, text, "1. Using the environment at "+env.URL+" (merchant live_shop)\n")
	require.Contains(t, text, "3. Skipping the local webhook receiver")
	require.Contains(t, text, "5. Skipping the payment")
	require.Regexp(t, `(?m)^6\. Order qs-\w+-links status: CREATED \(status_id 1\), amount 499\.00 INR$`, text)
	require.NotContains(t, text, "checkouttest) at")

	var calls []string
	for _, r := range env.Requests() {
		calls = append(calls, r.Method+" "+strings.Split(r.Path, "/qs-")[0])
	}
	require.Equal(t, []string{"POST /session", "POST /orders", "GET /orders"}, calls)
	require.Empty(t, env.Deliveries())
	var session struct {
		ClientID string `json:"payment_page_client_id"`
	}
	require.NoError(t, json.Unmarshal(env.Requests()[0].Body, &session))
	require.Equal(t, "live_shop_page", session.ClientID, "the session carries "+envPaymentPageClientID)
	require.Contains(t, text, "payment page client id live_shop_page)\n")
}

// CHECKOUT_PAYMENT_PAGE_CLIENT_ID is sent against the fake too, and a real
// environment needs it: "quickstart" is only the fake's default.
func TestRunPaymentPageClientID(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, func(k string) string {
		return map[string]string{envPaymentPageClientID: "shop_page_7"}[k]
	}))
	require.Contains(t, out.String(), "checkouttest) at")
	require.Contains(t, out.String(), `"clientId": "shop_page_7"`)

	env := checkouttest.NewServer(checkouttest.Config{MerchantID: "live_shop", APIKey: "live_key"})
	defer env.Close()
	vars := map[string]string{checkout.EnvBaseURL: env.URL, checkout.EnvMerchantID: "live_shop", checkout.EnvAPIKey: "live_key"}
	err := run(ctx, &bytes.Buffer{}, func(k string) string { return vars[k] })
	require.ErrorContains(t, err, "set CHECKOUT_PAYMENT_PAGE_CLIENT_ID to your account's payment page client id")
	require.Empty(t, env.Requests(), "nothing is sent without it")
}

func TestRunFailsClearly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	partial := map[string]string{checkout.EnvBaseURL: "https://api.example.com"}
	err := run(ctx, &bytes.Buffer{}, func(k string) string { return partial[k] })
	require.ErrorContains(t, err, "set all of CHECKOUT_BASE_URL, CHECKOUT_MERCHANT_ID and CHECKOUT_API_KEY")

	env := checkouttest.NewServer(checkouttest.Config{MerchantID: "live_shop", APIKey: "live_key"})
	defer env.Close()
	wrong := map[string]string{checkout.EnvBaseURL: env.URL, checkout.EnvMerchantID: "live_shop", checkout.EnvAPIKey: "not_the_key",
		envPaymentPageClientID: "live_shop_page"}
	err = run(ctx, &bytes.Buffer{}, func(k string) string { return wrong[k] })
	require.ErrorIs(t, err, checkout.ErrUnauthorized)
	require.ErrorContains(t, err, "create session")
	require.NotContains(t, err.Error(), "not_the_key")

	expired, cancel2 := context.WithCancel(context.Background())
	cancel2()
	err = run(expired, &bytes.Buffer{}, noEnv)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
}
