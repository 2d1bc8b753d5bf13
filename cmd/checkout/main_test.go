package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/internal/testio"
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
		require.Contains(t, r.stdout, "checkout lint --type TYPE [FILE]")
		require.Empty(t, r.stderr)
	}
	for cmd, want := range map[string][]string{
		"fake":    {"-addr", "-merchant-id", "CHECKOUT_MERCHANT_ID", "-api-key", "CHECKOUT_FAKE_API_KEY", "-webhook-url", "-webhook-user", "-webhook-password", "-response-key", "-jwe-keys-dir", "CHECKOUT_FAKE_JWE_KEYS_DIR"},
		"trigger": {"-order", "-fake", "CHECKOUT_FAKE_URL", "pay", "fail", "refund", "resend", "-duplicates", "-times"},
		"filter":  {"-hide", "-only", "-hide-card-types", "-hide-upi-handles", "-hide-bins", "-emi-enable", "-emi-disable", "-emi-enable-group", "-emi-disable-group", "-emi-remove-issuers", "-emi-remove-tenures", "-emi-only", "-emi-only-no-cost", "-strict"},
		"lint":    {"-type", "session", "emi", "advice:", "refused:"},
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
		"trigger pay with times":         {args: []string{"trigger", "pay", "--order", "o", "--times", "2"}, want: "--times goes with resend and fault only"},
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
		"fake with a bad order expiry":   {args: []string{"fake", "--merchant-id", "m", "--api-key", "k", "--order-expiry", "soon"}, want: `checkout fake: --order-expiry "soon" is not a positive duration`},
		"fake with an argument":          {env: []string{"CHECKOUT_MERCHANT_ID=m", "CHECKOUT_FAKE_API_KEY=k"}, args: []string{"fake", "now"}, want: `unexpected argument "now"`},
		"trigger fault without path":     {args: []string{"trigger", "fault", "--status", "502"}, want: "fault needs --path"},
		"trigger fault with an order":    {args: []string{"trigger", "fault", "--order", "o", "--path", "/orders", "--drop"}, want: "fault takes no --order"},
		"trigger pay with a fault flag":  {args: []string{"trigger", "pay", "--order", "o", "--status", "502"}, want: "--status goes with fault only"},
		"trigger fault with an amount":   {args: []string{"trigger", "fault", "--path", "/orders", "--drop", "--amount", "1.00"}, want: "fault takes --path"},
		"trigger without action":         {args: []string{"trigger", "--order", "o"}, want: "name one action: pay, fail, refund, resend or fault"},
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
