package webhook_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/validation"
	"github.com/payorch/checkout-go/webhook"
)

// exportedErrors lists the exported Err* constants and variables declared
// in the non-test Go files of dir.
func exportedErrors(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		require.NoError(t, err, f)
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || (gen.Tok != token.CONST && gen.Tok != token.VAR) {
				continue
			}
			for _, spec := range gen.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if id.IsExported() && strings.HasPrefix(id.Name, "Err") {
						names = append(names, id.Name)
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// Every exported sentinel of webhook and webhook/redisdedup starts
// "checkout: <operation>: " like every SDK error, stays one line, and is
// still matched by errors.Is once a caller wraps it. The walk over the
// sources makes a sentinel added later fail here until it is listed.
func TestSentinelsNameTheirOperation(t *testing.T) {
	const (
		verify = "checkout: verify webhook: "
		dedup  = "checkout: deduplicate webhook: "
		read   = "checkout: read webhook content: "
	)
	sentinels := map[string]struct {
		err       error
		prefix    string
		encrypted bool // also matches ErrEncrypted
	}{
		"webhook.ErrNotConfigured":    {webhook.ErrNotConfigured, verify, false},
		"webhook.ErrForbiddenSource":  {webhook.ErrForbiddenSource, verify, false},
		"webhook.ErrMethodNotAllowed": {webhook.ErrMethodNotAllowed, verify, false},
		"webhook.ErrBadCredentials":   {webhook.ErrBadCredentials, verify, false},
		"webhook.ErrHeaderMismatch":   {webhook.ErrHeaderMismatch, verify, false},
		"webhook.ErrBodyTooLarge":     {webhook.ErrBodyTooLarge, verify, false},
		"webhook.ErrMalformedBody":    {webhook.ErrMalformedBody, verify, false},
		"webhook.ErrEncrypted":        {webhook.ErrEncrypted, verify, true},
		"webhook.ErrNoDecrypter":      {webhook.ErrNoDecrypter, verify + "encrypted payload: ", true},
		"webhook.ErrNotEncrypted":     {webhook.ErrNotEncrypted, verify, false},
		"webhook.ErrInFlight":         {webhook.ErrInFlight, dedup, false},
		"webhook.ErrNoContent":        {webhook.ErrNoContent, read, false},
	}
	var declared []string
	for pkg, dir := range map[string]string{"webhook": ".", "redisdedup": "redisdedup"} {
		for _, name := range exportedErrors(t, dir) {
			declared = append(declared, pkg+"."+name)
		}
	}
	slices.Sort(declared)
	listed := slices.Sorted(maps.Keys(sentinels))
	require.Equal(t, listed, declared, "every exported sentinel is checked here, and only those")

	for name, s := range sentinels {
		msg := s.err.Error()
		require.True(t, strings.HasPrefix(msg, s.prefix), "%s = %q, want prefix %q", name, msg, s.prefix)
		require.NotContains(t, msg, "\n", name)
		for _, wrapped := range []error{
			fmt.Errorf("my handler: %w", s.err),
			fmt.Errorf("outer: %w", fmt.Errorf("%w: detail", s.err)),
		} {
			require.ErrorIs(t, wrapped, s.err, name)
			require.Equal(t, s.encrypted, errors.Is(wrapped, webhook.ErrEncrypted), "%s wrapped is ErrEncrypted", name)
			require.Equal(t, s.err == error(webhook.ErrMalformedBody), errors.Is(wrapped, webhook.ErrMalformedBody), "%s wrapped is ErrMalformedBody", name)
		}
	}
}

// stubDecrypter returns plain as the decrypted payload of any token.
type stubDecrypter []byte

func (d stubDecrypter) Decrypt(string) ([]byte, error) { return d, nil }

// The errors an operation returns, not only its sentinels, start with
// "checkout: <operation>: " and still match what they matched before.
func TestOperationErrorsNameTheirOperation(t *testing.T) {
	cfg := webhook.Config{Username: "shop", Password: "pw", AllowAnySource: true}
	verifyWith := func(d webhook.Decrypter, body string) error {
		c := cfg
		c.Decrypter = d
		v, err := webhook.NewVerifier(c)
		require.NoError(t, err)
		_, err = v.Verify(webhook.NewTestRequest(c, []byte(body)))
		return err
	}
	var nilVerifier *webhook.Verifier
	_, newVerifierErr := webhook.NewVerifier(webhook.Config{})
	_, newDecrypterErr := webhook.NewJWEDecrypter(webhook.JWEConfig{})
	_, sealErr := webhook.Seal([]byte(`{}`), webhook.SealOptions{})
	ev, err := webhook.ParseEvent([]byte(`{"event_name":"X","content":{"order":{"order_id":"o1"}}}`))
	require.NoError(t, err)
	var into struct {
		OrderID int `json:"order_id"`
	}
	_, refundErr := ev.Refund()
	damaged, err := webhook.ParseEvent([]byte(`{"event_name":"X","content":{"order":5}}`))
	require.NoError(t, err)
	_, orderErr := damaged.Order()

	tests := []struct {
		name, want string
		err, is    error
	}{
		{"nil Verifier", "checkout: verify webhook: verifier not configured (use NewVerifier)",
			func() error { _, err := nilVerifier.Verify(&http.Request{}); return err }(), webhook.ErrNotConfigured},
		{"decrypted payload not JSON", "checkout: verify webhook: malformed body: not a JSON object (in the decrypted payload)",
			verifyWith(stubDecrypter("nope"), `{"JWT":"a.b.c.d.e"}`), webhook.ErrMalformedBody},
		{"decrypted payload without event_name", "checkout: verify webhook: malformed body: no event_name (in the decrypted payload)",
			verifyWith(stubDecrypter(`{}`), `{"JWT":"a.b.c.d.e"}`), webhook.ErrMalformedBody},
		{"content absent", `checkout: read webhook content: X event carries no refund (its content holds "order")`, refundErr, webhook.ErrNoContent},
		{"content undecodable", "checkout: read webhook content: X event: its order does not decode: ", orderErr, webhook.ErrMalformedBody},
		{"DecodeContent", "checkout: read webhook content: malformed content: content.order: json: ", ev.DecodeContent(&into), webhook.ErrMalformedBody},
		{"DecodeContent of nil Event", "checkout: read webhook content: malformed content: content holds no object",
			(*webhook.Event)(nil).DecodeContent(&into), webhook.ErrMalformedBody},
		{"NewVerifier", "checkout: webhook: config: Username: required; ", newVerifierErr, validation.ErrInvalidRequest},
		{"Config.Validate", "checkout: webhook: config: Username: required; ", webhook.Config{}.Validate(), validation.ErrInvalidRequest},
		{"ValidateUsername", "checkout: webhook: config: Username: must not contain ':'", webhook.ValidateUsername("a:b"), validation.ErrInvalidRequest},
		{"NewJWEDecrypter", "checkout: new webhook decrypter: JWEConfig.PrivateKey is required", newDecrypterErr, nil},
		{"NewJWEDecrypterFromPEM", "checkout: parse private key: ", func() error { _, err := webhook.NewJWEDecrypterFromPEM(nil, nil); return err }(), nil},
		{"Seal", "checkout: seal webhook: SealOptions.Recipient is required", sealErr, nil},
	}
	for _, tt := range tests {
		require.Error(t, tt.err, tt.name)
		require.True(t, strings.HasPrefix(tt.err.Error(), tt.want), "%s: %q, want prefix %q", tt.name, tt.err, tt.want)
		require.NotContains(t, tt.err.Error(), "\n", tt.name)
		if tt.is != nil {
			require.ErrorIs(t, tt.err, tt.is, tt.name)
		}
	}
}
