package webhook

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
)

const orderBody = `{"id":"evt_V2_1","event_name":"ORDER_SUCCEEDED","date_created":"2023-08-10T07:00:48Z","content":{"order":{"order_id":"ord_1","status":"CHARGED","amount":100}}}`

func TestVerify(t *testing.T) {
	cfg := baseConfig()
	cfg.Headers = map[string]string{"X-Shop-Token": "tok-123", "x-env": "prod"}
	cfg.MaxBodyBytes = 1024
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	body := []byte(orderBody)

	tests := []struct {
		name string
		edit func(r *http.Request)
		want error // nil: accepted
	}{
		{"valid", func(*http.Request) {}, nil},
		{"custom header in other case", func(r *http.Request) {
			r.Header.Del("X-Shop-Token")
			r.Header["x-shop-token"] = nil
			r.Header.Set("x-shop-token", "tok-123")
		}, nil},
		{"forbidden source", func(r *http.Request) { r.RemoteAddr = "198.51.100.1:9" }, ErrForbiddenSource},
		{"forbidden source beats everything", func(r *http.Request) {
			r.RemoteAddr = "198.51.100.1:9"
			r.Method = "GET"
			r.Header.Del("Authorization")
		}, ErrForbiddenSource},
		// The order of the checks (DESIGN §5): each failure is reported by
		// the first check that sees it.
		{"method before credentials", func(r *http.Request) { r.Method = http.MethodGet; r.Header.Del("Authorization") }, ErrMethodNotAllowed},
		{"credentials before custom headers", func(r *http.Request) {
			r.Header.Set("Authorization", BasicAuthorization(testUser, "nope"))
			r.Header.Del("X-Shop-Token")
		}, ErrBadCredentials},
		{"custom headers before the body", func(r *http.Request) {
			r.Header.Set("X-Env", "sandbox")
			setBody(r, bytes.Repeat([]byte(" "), 5000), 5000)
		}, ErrHeaderMismatch},
		{"GET", func(r *http.Request) { r.Method = http.MethodGet }, ErrMethodNotAllowed},
		{"PUT", func(r *http.Request) { r.Method = http.MethodPut }, ErrMethodNotAllowed},
		{"long method", func(r *http.Request) { r.Method = strings.Repeat("M", 5000) }, ErrMethodNotAllowed},
		{"no authorization", func(r *http.Request) { r.Header.Del("Authorization") }, ErrBadCredentials},
		{"two authorization headers", func(r *http.Request) { r.Header.Add("Authorization", BasicAuthorization(testUser, testPass)) }, ErrBadCredentials},
		{"wrong password", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization(testUser, "nope")) }, ErrBadCredentials},
		{"wrong username", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization("other", testPass)) }, ErrBadCredentials},
		{"both wrong", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization("other", "nope")) }, ErrBadCredentials},
		{"swapped", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization(testPass, testUser)) }, ErrBadCredentials},
		{"password prefix", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization(testUser, testPass[:5])) }, ErrBadCredentials},
		{"password longer", func(r *http.Request) { r.Header.Set("Authorization", BasicAuthorization(testUser, testPass+"x")) }, ErrBadCredentials},
		{"username case", func(r *http.Request) {
			r.Header.Set("Authorization", BasicAuthorization(strings.ToUpper(testUser), testPass))
		}, ErrBadCredentials},
		{"bearer", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+testPass) }, ErrBadCredentials},
		{"garbage base64", func(r *http.Request) { r.Header.Set("Authorization", "Basic %%%") }, ErrBadCredentials},
		{"no colon", func(r *http.Request) {
			r.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(testUser+testPass)))
		}, ErrBadCredentials},
		{"custom header missing", func(r *http.Request) { r.Header.Del("X-Shop-Token") }, ErrHeaderMismatch},
		{"custom header wrong", func(r *http.Request) { r.Header.Set("X-Env", "sandbox") }, ErrHeaderMismatch},
		{"custom header repeated", func(r *http.Request) { r.Header.Add("X-Env", "prod") }, ErrHeaderMismatch},
		{"custom header padded", func(r *http.Request) { r.Header.Set("X-Env", "prod ") }, ErrHeaderMismatch},
		{"body too large by content-length", func(r *http.Request) { setBody(r, bytes.Repeat([]byte(" "), 1025), 1025) }, ErrBodyTooLarge},
		{"body too large, unknown length", func(r *http.Request) { setBody(r, bytes.Repeat([]byte(" "), 1025), -1) }, ErrBodyTooLarge},
		{"body too large, lying length", func(r *http.Request) { setBody(r, bytes.Repeat([]byte(" "), 5000), 10) }, ErrBodyTooLarge},
		{"body exactly at limit", func(r *http.Request) { setBody(r, append(bytes.Repeat([]byte(" "), 1024-len(body)), body...), -1) }, nil},
		{"empty body", func(r *http.Request) { setBody(r, nil, 0) }, ErrMalformedBody},
		{"nil body", func(r *http.Request) { r.Body = nil }, ErrMalformedBody},
		{"broken body", func(r *http.Request) { r.Body = io.NopCloser(errReader{}); r.ContentLength = -1 }, ErrMalformedBody},
		{"not json", func(r *http.Request) { setBody(r, []byte("event_name=X"), -1) }, ErrMalformedBody},
		{"jwt without decrypter", func(r *http.Request) { setBody(r, []byte(`{"JWT":"a.b.c.d.e"}`), -1) }, ErrNoDecrypter},
		{"jwt not a string", func(r *http.Request) { setBody(r, []byte(`{"JWT":42}`), -1) }, ErrMalformedBody},
		{"jwt empty", func(r *http.Request) { setBody(r, []byte(`{"JWT":" "}`), -1) }, ErrMalformedBody},
		{"jwt mixed with event", func(r *http.Request) { setBody(r, []byte(`{"JWT":"a.b.c.d.e","event_name":"X"}`), -1) }, ErrMalformedBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewTestRequest(cfg, body)
			tt.edit(r)
			ev, err := v.Verify(r)
			if tt.want == nil {
				require.NoError(t, err)
				require.Equal(t, "evt_V2_1", ev.ID)
				require.Equal(t, "ord_1", ev.OrderID())
				return
			}
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, ev)
			// Secrets never appear in errors, nor long text the sender chose.
			msg := err.Error()
			require.LessOrEqual(t, len(msg), 200, msg)
			for _, secret := range []string{testPass, "tok-123", base64.StdEncoding.EncodeToString([]byte(testUser + ":" + testPass))} {
				require.NotContains(t, msg, secret)
			}
			// Each failure has exactly one sentinel among the non-encrypted ones.
			n := 0
			for _, s := range []error{ErrForbiddenSource, ErrMethodNotAllowed, ErrBadCredentials, ErrHeaderMismatch, ErrBodyTooLarge, ErrMalformedBody, ErrEncrypted} {
				if errors.Is(err, s) {
					n++
				}
			}
			require.Equal(t, 1, n, "error %q matches %d sentinels", msg, n)
		})
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func setBody(r *http.Request, b []byte, length int64) {
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = length
}

func TestVerifyZeroAndNil(t *testing.T) {
	r := NewTestRequest(baseConfig(), []byte(orderBody))
	var zero Verifier
	_, err := zero.Verify(r)
	require.ErrorIs(t, err, ErrNotConfigured)
	var nilV *Verifier
	_, err = nilV.Verify(r)
	require.ErrorIs(t, err, ErrNotConfigured)
	require.Equal(t, "webhook.Verifier(not configured)", nilV.String())
}

func TestVerifyAllowAnySource(t *testing.T) {
	cfg := Config{Username: testUser, Password: testPass, AllowAnySource: true}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	r := NewTestRequest(cfg, []byte(orderBody))
	require.Equal(t, "192.0.2.1:40000", r.RemoteAddr)
	_, err = v.Verify(r)
	require.NoError(t, err)
	// Credentials are still required.
	r = NewTestRequest(cfg, []byte(orderBody))
	r.Header.Del("Authorization")
	_, err = v.Verify(r)
	require.ErrorIs(t, err, ErrBadCredentials)
}

func TestVerifyClosesBody(t *testing.T) {
	cfg := baseConfig()
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	r := NewTestRequest(cfg, []byte(orderBody))
	cb := &closeRecorder{Reader: strings.NewReader(orderBody)}
	r.Body = cb
	_, err = v.Verify(r)
	require.NoError(t, err)
	require.True(t, cb.closed)
}

type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func TestStatusFor(t *testing.T) {
	for err, want := range map[error]int{
		nil:                                      200,
		ErrForbiddenSource:                       403,
		ErrMethodNotAllowed:                      405,
		ErrBadCredentials:                        401,
		ErrHeaderMismatch:                        401,
		ErrBodyTooLarge:                          413,
		ErrMalformedBody:                         400,
		ErrNoDecrypter:                           500,
		openErr(checkout.ErrDecrypt, "x", nil):   500,
		openErr(checkout.ErrSignature, "x", nil): 500,
		openErr(checkout.ErrKeyOperation, "x", nil): 500,
		ErrNotEncrypted:              500,
		ErrInFlight:                  409,
		ErrNotConfigured:             500,
		errors.New("other"):          500,
		wrap(ErrBadCredentials, "x"): 401,
	} {
		require.Equal(t, want, StatusFor(err), "%v", err)
	}
}

// bigDecrypter returns a payload larger than the body limit.
type bigDecrypter struct{ n int }

func (d bigDecrypter) Decrypt(string) ([]byte, error) {
	return []byte(`{"event_name":"X","pad":"` + strings.Repeat("a", d.n) + `"}`), nil
}

func TestDecryptedPayloadIsBounded(t *testing.T) {
	cfg := baseConfig()
	cfg.MaxBodyBytes = 256
	cfg.Decrypter = bigDecrypter{n: 300}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	_, err = v.Verify(NewTestRequest(cfg, []byte(`{"JWT":"a.b.c.d.e"}`)))
	require.ErrorIs(t, err, ErrBodyTooLarge)

	cfg.Decrypter = bigDecrypter{n: 10}
	v, err = NewVerifier(cfg)
	require.NoError(t, err)
	ev, err := v.Verify(NewTestRequest(cfg, []byte(`{"JWT":"a.b.c.d.e"}`)))
	require.NoError(t, err)
	require.True(t, ev.Encrypted)
}

// FuzzVerifyBody: every body, plain or enveloped, through the whole
// Verify path: never a panic, never an event without a name, and every
// error maps to a documented status.
func FuzzVerifyBody(f *testing.F) {
	for _, s := range []string{orderBody, `{"JWT":"a.b.c.d.e"}`, `{"JWT":1}`, `{"header":"a","encryptedKey":"b","iv":"c","encryptedPayload":"d","tag":"e"}`,
		`{"encryptedPayload":"x","event_name":"Y"}`, `{"JWT":"x","id":1}`, "\xff", `{"event_name":"X","content":[1,2]}`} {
		f.Add([]byte(s))
	}
	cfg := baseConfig()
	cfg.MaxBodyBytes = 4096
	cfg.Decrypter = failingDecrypter{}
	v, err := NewVerifier(cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := v.Verify(NewTestRequest(cfg, body))
		if err != nil {
			if ev != nil {
				t.Fatal("event with error")
			}
			switch StatusFor(err) {
			case 400, 413, 500:
			default:
				t.Fatalf("status %d for %v", StatusFor(err), err)
			}
			return
		}
		if ev.Name == "" || ev.DedupKey() == "" {
			t.Fatalf("accepted %q", body)
		}
	})
}

func TestSentinelsAreDistinct(t *testing.T) {
	all := []error{ErrNotConfigured, ErrForbiddenSource, ErrMethodNotAllowed, ErrBadCredentials, ErrHeaderMismatch,
		ErrBodyTooLarge, ErrMalformedBody, ErrEncrypted, ErrNoDecrypter, ErrInFlight}
	for i, a := range all {
		for j, b := range all {
			want := i == j || (b == error(ErrEncrypted) && a == error(ErrNoDecrypter))
			require.Equal(t, want, errors.Is(a, b), "errors.Is(%v, %v)", a, b)
		}
		require.True(t, strings.HasPrefix(a.Error(), "checkout: "))
	}
}

func TestVerifyNilRequest(t *testing.T) {
	cfg := baseConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	var zero Verifier
	var nilV *Verifier
	tests := []struct {
		name string
		v    *Verifier
		want error
	}{
		{"configured", v, ErrMalformedBody},
		{"zero", &zero, ErrNotConfigured},
		{"nil", nilV, ErrNotConfigured},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ev *Event
			require.NotPanics(t, func() { ev, err = tt.v.Verify(nil) })
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, ev)

			// The Handler of each, given a nil request (net/http never
			// does, a direct caller might): an error status, no panic,
			// fn not called.
			h := tt.v.Handler(func(context.Context, *Event) error { t.Error("fn called"); return nil })
			rec := httptest.NewRecorder()
			require.NotPanics(t, func() { h.ServeHTTP(rec, nil) })
			require.Equal(t, http.StatusBadRequest, rec.Code)
			// And a real request to a nil or zero Verifier's Handler: 500.
			if tt.v != v {
				require.Equal(t, http.StatusInternalServerError, serve(h, NewTestRequest(cfg, []byte(orderBody))).Code)
			}
		})
	}
}

// TestCredentialsComparedInConstantTimeBothParts pins what no request can
// show without timing it (spec §5.3, DESIGN §5): checkCredentials compares
// the username and the password digests with subtle.ConstantTimeCompare,
// both in one expression joined by a non-short-circuit '&', before any
// return, so a wrong username, a malformed header or a missing one cost the
// same work as a wrong password; and it never compares the received
// credentials with == or !=. A refactor that breaks any of these fails here.
func TestCredentialsComparedInConstantTimeBothParts(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "verifier.go", nil, 0)
	require.NoError(t, err)
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "checkCredentials" {
			fn = fd
		}
	}
	require.NotNil(t, fn, "checkCredentials not found in verifier.go")

	isCTC := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "subtle" && sel.Sel.Name == "ConstantTimeCompare"
	}

	// Find the top-level statement holding the '&' of two compares.
	compareAt := -1
	ctcCalls := 0
	for i, stmt := range fn.Body.List {
		ast.Inspect(stmt, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if isCTC(x) {
					ctcCalls++
				}
			case *ast.BinaryExpr:
				switch x.Op {
				case token.AND:
					if isCTC(x.X) && isCTC(x.Y) {
						compareAt = i
					}
				case token.LAND, token.LOR:
					t.Errorf("%s: short-circuit %s in checkCredentials", fset.Position(x.Pos()), x.Op)
				case token.EQL, token.NEQ:
					for _, side := range []ast.Expr{x.X, x.Y} {
						if id, ok := ast.Unparen(side).(*ast.Ident); ok && (id.Name == "user" || id.Name == "pass") {
							t.Errorf("%s: %s compared with %s", fset.Position(x.Pos()), id.Name, x.Op)
						}
					}
				}
			}
			return true
		})
	}
	require.Equal(t, 2, ctcCalls, "one constant-time compare per credential part")
	require.GreaterOrEqual(t, compareAt, 0, "the two compares are not joined by '&' in one expression")
	for i, stmt := range fn.Body.List[:compareAt] {
		ast.Inspect(stmt, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok {
				t.Errorf("statement %d returns (%s) before both parts are compared", i, fset.Position(r.Pos()))
			}
			return true
		})
	}
}
