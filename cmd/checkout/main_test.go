package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/testio"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/webhook"
)

// bin is the command, built once by TestMain with go build.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "checkout-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "checkout")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := conformance.Main(m) // says how many tests skipped for want of the samples
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr string
}

// cli runs the built command with args and env (added to a clean
// environment) and waits for it.
func cli(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	r := testio.Run(t, cmd)
	return result{r.Code, r.Stdout, r.Stderr}
}

func TestHelpOnEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		r := cli(t, nil, args...)
		require.Equal(t, 0, r.code, args)
		require.Contains(t, r.stdout, "checkout fake [flags]")
		require.Contains(t, r.stdout, "checkout trigger pay|fail|refund")
		require.Empty(t, r.stderr)
	}
	for cmd, want := range map[string][]string{
		"fake":    {"-addr", "-merchant-id", "CHECKOUT_MERCHANT_ID", "-api-key", "CHECKOUT_FAKE_API_KEY", "-webhook-url", "-webhook-user", "-webhook-password", "-response-key", "-jwe-keys-dir", "CHECKOUT_FAKE_JWE_KEYS_DIR"},
		"trigger": {"-order", "-fake", "CHECKOUT_FAKE_URL", "pay", "fail", "refund", "resend", "-duplicates", "-times"},
		"filter":  {"-hide", "-only", "-hide-card-types", "-hide-upi-handles", "-hide-bins", "-emi-enable", "-emi-disable", "-emi-enable-group", "-emi-disable-group", "-emi-remove-issuers", "-emi-remove-tenures", "-emi-only", "-emi-only-no-cost"},
	} {
		for _, args := range [][]string{{cmd, "--help"}, {cmd, "-h"}, {cmd, "-help"}, {"help", cmd}, {cmd, "--hide", "WALLET", "--help"}} {
			if cmd != "filter" && args[len(args)-1] == "--help" && len(args) > 2 {
				continue // a filter flag
			}
			r := cli(t, nil, args...)
			require.Equal(t, 0, r.code, args)
			require.Equal(t, 1, strings.Count(r.stdout, "Usage: checkout "+cmd), "the help once: %v", args)
			require.Equal(t, 1, strings.Count(r.stdout, "\nFlags:\n"), args)
			require.Empty(t, r.stderr, "on stdout only: %v", args)
			for _, w := range want {
				require.Contains(t, r.stdout, w, args)
			}
		}
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for name, tc := range map[string]struct {
		env  []string
		args []string
		want string
		not  string // what the message must not say
	}{
		"fake with a bad URL in the environment": {env: []string{"CHECKOUT_WEBHOOK_URL=http://shop.example/h"}, args: []string{"fake", "--merchant-id", "m", "--api-key", "k"},
			want: "checkout fake: CHECKOUT_WEBHOOK_URL must be https", not: "--webhook-url"},
		"fake with bad headers in the environment": {env: []string{"CHECKOUT_WEBHOOK_HEADERS=X-Shop"}, args: []string{"fake", "--merchant-id", "m", "--api-key", "k"},
			want: "checkout fake: CHECKOUT_WEBHOOK_HEADERS: item 1 is not Name=value", not: "--webhook-headers"},
		"fake without ids from the environment": {env: []string{"CHECKOUT_FAKE_API_KEY=k"}, args: []string{"fake"}, want: "--merchant-id is required", not: "CHECKOUT_FAKE_API_KEY"},
		"fake never takes the production key": {env: []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_API_KEY=prod_key"}, args: []string{"fake"},
			want: "checkout fake: --api-key is required", not: "prod_key"},
		"trigger fake URL without scheme": {args: []string{"trigger", "pay", "--order", "o", "--fake", "127.0.0.1:8080"},
			want: "checkout trigger: --fake 127.0.0.1:8080 has no scheme: write http://127.0.0.1:8080"},
		"trigger fake URL from the environment": {env: []string{"CHECKOUT_FAKE_URL=localhost:8080"}, args: []string{"trigger", "pay", "--order", "o"},
			want: "checkout trigger: CHECKOUT_FAKE_URL localhost:8080 has no scheme: write http://localhost:8080"},
		"trigger fake URL with a password": {args: []string{"trigger", "pay", "--order", "o", "--fake", "user:pw-secret@127.0.0.1:8080"},
			want: "is not an http(s) URL", not: "pw-secret"},
		"fake address from the environment": {env: []string{"CHECKOUT_FAKE_ADDR=nonsense", "CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, args: []string{"fake"},
			want: `checkout fake: CHECKOUT_FAKE_ADDR "nonsense" is not host:port, like 127.0.0.1:8080`, not: "missing port"},
		"fake address port out of range": {env: []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, args: []string{"fake", "--addr", "127.0.0.1:99999"},
			want: `checkout fake: --addr "127.0.0.1:99999" is not host:port`},
		"trigger amount on fail":         {args: []string{"trigger", "fail", "--order", "o", "--amount", "1.00"}, want: "--amount goes with pay only"},
		"trigger amount not an amount":   {args: []string{"trigger", "pay", "--order", "o", "--amount", "ten"}, want: `--amount "ten" is not an amount like 90.00`},
		"trigger amount zero":            {args: []string{"trigger", "pay", "--order", "o", "--amount", "0"}, want: `--amount "0" is not an amount`},
		"trigger resend with duplicates": {args: []string{"trigger", "resend", "--order", "o", "--duplicates", "1"}, want: "resend takes --times"},
		"trigger pay with times":         {args: []string{"trigger", "pay", "--order", "o", "--times", "2"}, want: "--times goes with resend only"},
		"trigger too many duplicates":    {args: []string{"trigger", "pay", "--order", "o", "--duplicates", "11"}, want: "--duplicates must be from 1 to 10"},
		"trigger no times":               {args: []string{"trigger", "resend", "--order", "o", "--times", "0"}, want: "--times must be from 1 to 10"},
		"filter unknown EMI plan":        {args: []string{"filter", "--emi-enable", "noCost"}, want: `checkout filter: invalid value "noCost" for flag -emi-enable: unknown EMI plan type "noCost": use standardEmi, lowCostEmi or noCostEmi`},
		"filter unknown EMI group":       {args: []string{"filter", "--emi-disable-group", "noCostEmi.gold"}, want: `unknown EMI group "gold"`},
		"filter EMI group without plan":  {args: []string{"filter", "--emi-enable-group", "credit"}, want: "is not PLAN.GROUP"},
		"filter EMI issuers":             {args: []string{"filter", "--emi-remove-issuers", "noCostEmi.credit"}, want: "is not PLAN.GROUP:ISSUER,ISSUER"},
		"filter EMI tenures":             {args: []string{"filter", "--emi-remove-tenures", "noCostEmi.credit:SVC_ICICI:9-12"}, want: "malformed tenure range"},
		"filter EMI tenures no issuer":   {args: []string{"filter", "--emi-remove-tenures", "noCostEmi.credit:9::12"}, want: "is not PLAN.GROUP:ISSUER:FROM::TO,FROM::TO"},
		"filter EMI empty plan list":     {args: []string{"filter", "--emi-disable", ","}, want: "no EMI plan type given"},
		"no command":                     {args: nil, want: "Usage:"},
		"unknown command":                {args: []string{"serve"}, want: `unknown command "serve"`},
		"unknown flag":                   {args: []string{"filter", "--bogus"}, want: "flag provided but not defined: -bogus"},
		"fake without ids":               {args: []string{"fake"}, want: "--merchant-id is required"},
		"fake with a bad URL":            {args: []string{"fake", "--merchant-id", "m", "--api-key", "k", "--webhook-url", "http://shop.example/h"}, want: "--webhook-url"},
		"fake with bad headers":          {args: []string{"fake", "--merchant-id", "m", "--api-key", "k", "--webhook-headers", "X-Shop"}, want: "Name=value"},
		"fake with an argument":          {env: []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, args: []string{"fake", "now"}, want: `unexpected argument "now"`},
		"trigger without action":         {args: []string{"trigger", "--order", "o"}, want: "name one action"},
		"trigger bad action":             {args: []string{"trigger", "explode", "--order", "o"}, want: `unknown action "explode"`},
		"trigger without order":          {args: []string{"trigger", "pay"}, want: "--order is required"},
		"trigger bad fake URL":           {args: []string{"trigger", "pay", "--order", "o", "--fake", "ftp://127.0.0.1:8080"}, want: "--fake ftp://127.0.0.1:8080 is not an http(s) URL"},
		"filter bad BIN range":           {args: []string{"filter", "--hide-bins", "4590"}, want: "malformed BIN range"},
		"filter bad methods":             {args: []string{"filter", "--hide-methods", "PAYTM"}, want: "TYPE:CODE,CODE"},
		"filter two --only":              {args: []string{"filter", "--only", "UPI", "--only", "CARD"}, want: "give --only once"},
		"filter empty --only":            {args: []string{"filter", "--only", " , "}, want: "no method type given"},
		"filter empty --hide":            {args: []string{"filter", "--hide", ","}, want: "no method type given"},
		"filter empty card list":         {args: []string{"filter", "--hide-card-types", ""}, want: "empty list"},
		"filter empty BIN list":          {args: []string{"filter", "--show-bins", ","}, want: "empty list"},
	} {
		t.Run(name, func(t *testing.T) {
			r := cli(t, tc.env, tc.args...)
			require.Equal(t, 2, r.code, r.stderr)
			require.Contains(t, r.stderr, tc.want)
			require.Empty(t, r.stdout)
			require.NotContains(t, r.stderr, "\nFlags:\n", "a usage error points to --help instead of printing it")
			if tc.not != "" {
				require.NotContains(t, r.stderr, tc.not)
			}
		})
	}
}

func TestFilterPrintsTheBuildersJSON(t *testing.T) {
	r := cli(t, nil, "filter", "--hide", "WALLET,NB", "--hide-card-types", "CREDIT", "--hide-upi-handles", "@ybl",
		"--hide-methods", "CONSUMER_FINANCE:LAZYPAY,SIMPL", "--hide-bins", "459000::460000")
	require.Equal(t, 0, r.code, r.stderr)
	f := paymentfilter.New()
	f = f.Hide(paymentfilter.Wallet, paymentfilter.NB)
	f = f.HideCardTypes(paymentfilter.Credit)
	f = f.HideUPIHandles("@ybl")
	f = f.HideMethods(paymentfilter.ConsumerFinance, "LAZYPAY", "SIMPL")
	f = f.HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})
	want, err := json.Marshal(f)
	require.NoError(t, err)
	require.JSONEq(t, string(want), r.stdout)
	require.Contains(t, r.stdout, "\n  \"options\"", "indented by default")

	r = cli(t, nil, "filter", "--only", "UPI", "--hide-upi-handles", "@ybl", "--compact")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, 1, strings.Count(r.stdout, "\n"), "one line")
	var got struct {
		AllowDefaultOptions bool `json:"allowDefaultOptions"`
		Options             []struct {
			PaymentMethodType string `json:"paymentMethodType"`
			Enable            bool   `json:"enable"`
			UPIFilters        []struct {
				UPIType    string   `json:"upiType"`
				Enable     bool     `json:"enable"`
				UPIMethods []string `json:"upiMethods"`
			} `json:"upiFilters"`
		} `json:"options"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.False(t, got.AllowDefaultOptions, "only UPI")
	require.Len(t, got.Options, 1)
	require.Equal(t, "UPI", got.Options[0].PaymentMethodType)
	require.True(t, got.Options[0].Enable)
	require.Equal(t, []string{"@ybl"}, got.Options[0].UPIFilters[0].UPIMethods)
	require.False(t, got.Options[0].UPIFilters[0].Enable)

	// A filter the SDK refuses (a hidden CARD cannot carry card filters).
	r = cli(t, nil, "filter", "--hide", "CARD", "--hide-card-types", "CREDIT")
	require.Equal(t, 1, r.code)
	require.True(t, strings.HasPrefix(r.stderr, "checkout filter: "), r.stderr)
	require.Empty(t, r.stdout)
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// startFake runs "checkout fake" and waits until it answers.
func startFake(t *testing.T, env []string, args ...string) (base string, cmd *exec.Cmd, stdout, stderr *testio.SyncBuffer) {
	t.Helper()
	addr := freeAddr(t)
	for i, a := range args { // an --addr of the test's wins
		if a == "--addr" && i+1 < len(args) {
			addr = args[i+1]
		}
	}
	cmd = exec.Command(bin, append([]string{"fake", "--addr", addr}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	stdout, stderr = &testio.SyncBuffer{}, &testio.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	base = "http://" + strings.Replace(addr, "0.0.0.0", "127.0.0.1", 1)
	require.Eventually(t, func() bool {
		resp, err := http.Get(base + "/__checkouttest/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}, 20*time.Second, 20*time.Millisecond, "the fake did not start: %s %s", stdout, stderr)
	// The fake prints its startup lines before it takes a connection, but
	// they reach stdout through a pipe the test reads on its own time.
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "stop with Ctrl-C\n") },
		5*time.Second, 5*time.Millisecond, "the fake answers but its startup lines did not all arrive: %s", stdout)
	return base, cmd, stdout, stderr
}

// call makes a request to the fake as a client not written in Go would.
func call(t *testing.T, method, u string, form url.Values) map[string]any {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.SetBasicAuth("cli_key", "")
	req.Header.Set("x-merchantid", "cli_shop")
	req.Header.Set("version", "2023-06-30")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	require.Equal(t, 200, resp.StatusCode, string(body))
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m))
	return m
}

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

// A client not written in Go reads the fake's JWE+JWS keys from files;
// here the SDK's own PEM readers stand in for it, and a session and an
// order status go through the /v4 calls of the standalone fake.
func TestFakeWritesJWEKeys(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	base, _, out, _ := startFake(t, []string{"CHECKOUT_MERCHANT_ID=jwe_shop", "CHECKOUT_FAKE_API_KEY=jwe_key"}, "--jwe-keys-dir", dir)

	kid, err := os.ReadFile(filepath.Join(dir, "key_id"))
	require.NoError(t, err)
	keyID := strings.TrimSpace(string(kid))
	require.True(t, strings.HasPrefix(keyID, "key_"), keyID)
	require.Contains(t, out.String(), "JWE+JWS:   key id "+keyID+", keys in "+dir)
	priv, err := os.ReadFile(filepath.Join(dir, "merchant_private.pem"))
	require.NoError(t, err)
	fi, err := os.Stat(filepath.Join(dir, "merchant_private.pem"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the private key is the owner's alone")
	pub, err := os.ReadFile(filepath.Join(dir, "service_public.pem"))
	require.NoError(t, err)

	merchantKey, err := checkout.ParseRSAPrivateKeyPEM(priv)
	require.NoError(t, err)
	serviceKey, err := checkout.ParseRSAPublicKeyPEM(pub)
	require.NoError(t, err)
	c, err := checkout.NewClient("jwe_shop", "jwe_key", checkout.WithBaseURL(base), checkout.WithJWE(keyID, merchantKey, serviceKey))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := c.CreateSession(ctx, &checkout.SessionRequest{OrderID: "ord_jwe", Amount: "1.0", CustomerID: "c1",
		CustomerPhone: "9876543210", CustomerEmail: "a@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage})
	require.NoError(t, err)
	require.Equal(t, "ord_jwe", sess.OrderID)
	st, err := c.GetOrder(ctx, "ord_jwe")
	require.NoError(t, err)
	require.Equal(t, checkout.Amount("1.00"), st.Amount)

	// A key from elsewhere is refused by the same fake.
	other, err := checkout.NewClient("jwe_shop", "jwe_key", checkout.WithBaseURL(base), checkout.WithJWE("key_other", merchantKey, serviceKey))
	require.NoError(t, err)
	_, err = other.GetOrder(ctx, "ord_jwe")
	require.ErrorIs(t, err, checkout.ErrUnauthorized)

	// A directory that cannot be made: status 1, nothing served.
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	r := cli(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, "fake", "--addr", freeAddr(t), "--jwe-keys-dir", filepath.Join(file, "keys"))
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "--jwe-keys-dir")
}

func TestFakeStopsOnInterruptAndReportsBusyPort(t *testing.T) {
	env := []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}
	_, fake, _, _ := startFake(t, env)
	require.NoError(t, fake.Process.Signal(os.Interrupt))
	require.NoError(t, fake.Wait(), "exit status 0 after Ctrl-C")

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	r := cli(t, env, "fake", "--addr", l.Addr().String())
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "address already in use")
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

// A fake put on every interface says so, and prints a base URL that
// checkout.WithBaseURL takes (http://[::]:port is not one).
func TestFakeOnEveryInterface(t *testing.T) {
	_, port, err := net.SplitHostPort(freeAddr(t))
	require.NoError(t, err)
	base, _, out, errOut := startFake(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, "--addr", "0.0.0.0:"+port)
	require.Regexp(t, `checkout fake: warning: listening on \S+:`+port+`, beyond loopback`, errOut.String())
	require.Contains(t, out.String(), "base URL:  http://127.0.0.1:"+port+" ")
	_, err = checkout.NewClient("m", "k", checkout.WithBaseURL("http://127.0.0.1:"+port))
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:"+port, base)

	_, _, _, quiet := startFake(t, []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"})
	require.NotContains(t, quiet.String(), "warning", "loopback: nothing to warn of")
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
