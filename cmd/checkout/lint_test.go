package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeFile writes body to a file of the test and returns its path.
func writeFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "body.json")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

// TestLintPrintsAdvice: checkout lint reads a body, prints package lint's
// advice and what Validate refuses, and exits 1 on either, 0 on neither.
func TestLintPrintsAdvice(t *testing.T) {
	const good = `{"order_id":"o1","amount":"10.00","customer_id":"c","customer_phone":"9876543210",
		"customer_email":"a@shop.example","payment_page_client_id":"shop","action":"paymentPage"}`
	r := cli(t, nil, "lint", "--type", "session", writeFile(t, good))
	require.Equal(t, 0, r.code, r.stderr)
	require.Empty(t, r.stdout)
	require.Empty(t, r.stderr)

	r = cli(t, nil, "lint", "--type", "session", writeFile(t, strings.Replace(good, `"10.00"`, `"10"`, 1)))
	require.Equal(t, 1, r.code)
	require.Equal(t, "advice: amount: has no decimal places: the service takes it, but its documents write amounts with two, like \"10.00\"\n", r.stdout)

	r = cli(t, nil, "lint", "--type", "session", writeFile(t, `{"action":"paymentPage","amount":"1.005"}`))
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stdout, "refused: amount: must have at most two decimal places\n")
	require.Contains(t, r.stdout, "refused: customer_id: is required\n")

	r = cli(t, nil, "lint", "--type", "filter", writeFile(t, `{"allowDefaultOptions":true,"options":[{"paymentMethodType":"WALLLET","enable":false}]}`))
	require.Equal(t, 1, r.code)
	require.Equal(t, "advice: payment_filter.options[0].paymentMethodType: unknown payment method type \"WALLLET\": likely a typo, did you mean \"WALLET\"?\n", r.stdout)

	r = cli(t, nil, "lint", "--type", "session", writeFile(t, strings.Replace(good, `"a@shop.example"`, `"x"`, 1)))
	require.Equal(t, 1, r.code)
	require.Equal(t, "advice: customer_email: does not look like an email address\n", r.stdout)

	r = cli(t, nil, "lint", "--type", "emi", writeFile(t, `{}`))
	require.NotEqual(t, 2, r.code, r.stderr)
	// The order and customer calls send forms: they have no JSON to lint.
	r = cli(t, nil, "lint", "--type", "order", writeFile(t, `{}`))
	require.Equal(t, 2, r.code)
}

// TestLintUsage: a missing or unknown --type, two files, and input that is
// not the type's JSON are usage errors (exit 2).
func TestLintUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", writeFile(t, `{}`)}, "checkout lint: --type is required: one of session, filter, emi"},
		{[]string{"lint", "--type", "sesion", writeFile(t, `{}`)}, `checkout lint: --type "sesion" is not one of session`},
		{[]string{"lint", "--type", "session", "a.json", "b.json"}, "checkout lint: give one FILE, not 2"},
		{[]string{"lint", "--type", "session", writeFile(t, `[1]`)}, "checkout lint: the input is not a session"},
		{[]string{"lint", "--type", "filter", filepath.Join(t.TempDir(), "absent.json")}, "checkout lint: open "},
	} {
		r := cli(t, nil, tc.args...)
		require.Equal(t, 2, r.code, "%v: %s", tc.args, r.stderr)
		require.Contains(t, r.stderr, tc.want, tc.args)
		require.Empty(t, r.stdout)
	}
	r := cli(t, nil, "lint", "--help")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "Usage: checkout lint [flags] [FILE]")
	require.Contains(t, r.stdout, "-type")
}
