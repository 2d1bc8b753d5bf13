package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/claim/redisclaim"
	"github.com/payorch/checkout-go/webhook"
)

// secretPackages are the library packages whose types are searched, as
// directories under the module root.
var secretPackages = []string{".", "webhook", "claim/redisclaim", "checkouttest", "paymentfilter", "emi", "productsummary", "validation"}

// The rule that makes a struct type hold a secret, kept simple on purpose:
// one of its fields, exported or not,
//
//  1. has a private-key or credential-holding type (keyTypes), possibly
//     behind a pointer, slice or map; or
//  2. is named like a secret (secretName: a name ending in password,
//     secret, API key, token, credential, authorization or header, or in
//     key or keyPEM after other letters, such as ResponseKey, but not a
//     bare Key) and has a type that can carry text: not a bool, a number,
//     a time.Time or a time.Duration (a ClientAuthToken flag holds
//     nothing); or
//  3. has a type of the same package that holds a secret by these rules.
//
// Fields listed in notSecret, each with the reason, do not count. Every
// exported type the rule finds must have a constructor in secretValues.
var (
	keyTypes = map[string]bool{
		"rsa.PrivateKey": true, "ecdsa.PrivateKey": true, "ed25519.PrivateKey": true,
		"crypto.PrivateKey": true, "crypto.Signer": true, "crypto.Decrypter": true,
		// A Redis client holds the Redis password.
		"redis.UniversalClient": true, "redis.Client": true, "redis.Options": true,
	}
	secretName = regexp.MustCompile(`(?i)(password|secret|api_?key|token|credentials?|authorization|headers?|[a-z]key|keypem)$`)
	plainTypes = map[string]bool{
		"bool": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
		"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true, "float64": true,
		"time.Time": true, "time.Duration": true,
		"Bool": true, "Int": true, "checkout.Bool": true, "checkout.Int": true, // checkout's scalars of a reply
	}
	notSecret = map[string]string{
		// Reply data: the service sends it for the merchant to use, the
		// reply's Raw holds it too, and json.Marshal must round-trip it.
		"checkout.ClientAuth.ClientAuthToken":      "reply data: a checkout.Secret, handed to the payment page SDK by design",
		"checkout.CardDetail.Token":                "reply data: the card's network token block (provider, PAR, last digits); no token number is typed",
		"checkout.MandateDetail.MandateToken":      "reply data: the service's id of a mandate, used only with the API key",
		"checkout.MandateDetail.MandateDebitToken": "reply data: the service's id of a mandate debit, used only with the API key",
		"checkouttest.order.clientAuthToken":       "the fake's own reply data (client_auth_token)",
		"checkouttest.clientAuth.Token":            "the fake's own reply data (client_auth_token)",
		"redisclaim.heldRec.token":                 "a claim's random token: it names a claim and opens nothing",
	}
)

// secretHolders parses the packages' non-test sources and returns the
// exported struct types that hold a secret, as "pkg.Type" (the package's
// name, as reflect spells the type).
func secretHolders(t *testing.T) []string {
	t.Helper()
	type field struct {
		name string
		typ  ast.Expr
	}
	structs := map[string][]field{} // "pkg.Type" -> fields
	for _, dir := range secretPackages {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.TYPE {
					continue
				}
				for _, spec := range gen.Specs {
					ts := spec.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					var fields []field
					for _, fl := range st.Fields.List {
						if len(fl.Names) == 0 { // embedded: named after its type
							fields = append(fields, field{typeName(fl.Type), fl.Type})
						}
						for _, id := range fl.Names {
							fields = append(fields, field{id.Name, fl.Type})
						}
					}
					structs[f.Name.Name+"."+ts.Name.Name] = fields
				}
			}
		}
	}
	for exempt := range notSecret { // the list names real fields only
		parts := strings.SplitN(exempt, ".", 3)
		require.Len(t, parts, 3, exempt)
		require.True(t, slices.ContainsFunc(structs[parts[0]+"."+parts[1]], func(f field) bool { return f.name == parts[2] }),
			"notSecret names %s, which is no field of a struct", exempt)
	}
	holds := map[string]bool{}
	for changed := true; changed; { // rule 3 until nothing changes
		changed = false
		for typ, fields := range structs {
			if holds[typ] {
				continue
			}
			pkg, _, _ := strings.Cut(typ, ".")
			for _, f := range fields {
				if _, ok := notSecret[typ+"."+f.name]; ok {
					continue
				}
				elem := typeName(elemType(f.typ))
				if !strings.Contains(elem, ".") {
					elem = pkg + "." + elem
				}
				if keyTypes[typeName(elemType(f.typ))] || holds[elem] ||
					(secretName.MatchString(f.name) && !plainTypes[typeName(f.typ)]) {
					holds[typ], changed = true, true
					break
				}
			}
		}
	}
	var out []string
	for typ := range holds {
		if _, name, _ := strings.Cut(typ, "."); ast.IsExported(name) {
			out = append(out, typ)
		}
	}
	slices.Sort(out)
	return out
}

// elemType strips pointers, slices, arrays and maps down to the element.
func elemType(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ArrayType:
			e = x.Elt
		case *ast.MapType:
			e = x.Value
		default:
			return e
		}
	}
}

// typeName spells a type expression the way keyTypes and plainTypes do.
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return typeName(x.X) + "." + x.Sel.Name
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.IndexExpr: // a generic type
		return typeName(x.X)
	}
	return ""
}

// secretValue is a populated value of a type that holds secrets, and the
// secrets planted in it, by name.
type secretValue struct {
	ptr     any                 // a pointer to the value
	secrets map[string][]string // name -> every form it may take in a rendering
}

// Planted secrets: distinctive, long enough never to appear by chance.
const (
	plantedPassword  = "PLANTED-password-5e2b71c0d4"
	plantedHeader    = "PLANTED-header-value-9a3f1e"
	plantedAPIKey    = "PLANTED-api-key-31c9d7a2b8e"
	plantedResponse  = "PLANTED-response-key-0f6a2c"
	plantedRedisPass = "PLANTED-redis-password-77d1"
)

var (
	plantedKey = sync.OnceValue(func() *rsa.PrivateKey { k, _ := rsa.GenerateKey(rand.Reader, 2048); return k })
	otherKey   = sync.OnceValue(func() *rsa.PrivateKey { k, _ := rsa.GenerateKey(rand.Reader, 2048); return k })
)

// textForms are the forms text takes in a rendering: as it is, as hex in
// either case (%x, %X, with spaces or not), as the decimal bytes of a
// []byte (%v), and as standard base64 (json.Marshal of a []byte) at each
// of the three alignments it can have inside a longer []byte.
func textForms(s string) []string {
	b := []byte(s)
	forms := []string{s, hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b)),
		fmt.Sprintf("% x", b), fmt.Sprintf("% X", b), strings.Trim(fmt.Sprint(b), "[]"),
		strings.Trim(fmt.Sprintf("%o", b), "[]"), strings.Trim(fmt.Sprintf("%b", b), "[]")}
	for k := range 3 {
		enc := base64.StdEncoding.EncodeToString(b[k:])
		forms = append(forms, enc[:(len(b)-k)/3*4])
	}
	return forms
}

// keyForms are the forms of an RSA private key's secret numbers (D and
// the primes) in every base fmt and encoding/json print big integers in.
func keyForms(k *rsa.PrivateKey) []string {
	var forms []string
	for _, n := range append([]*big.Int{k.D}, k.Primes...) {
		h := n.Text(16)
		forms = append(forms, n.Text(10), h, strings.ToUpper(h), n.Text(8), n.Text(2),
			base64.StdEncoding.EncodeToString(n.Bytes()), base64.RawURLEncoding.EncodeToString(n.Bytes()))
	}
	return forms
}

// pemForms are the forms of a PEM block: its text and each base64 line.
func pemForms(p []byte) []string {
	forms := textForms(string(p))
	for _, line := range strings.Split(string(p), "\n") {
		if len(line) >= 32 && !strings.HasPrefix(line, "-----") {
			forms = append(forms, line)
		}
	}
	return forms
}

func basicForms(key string) []string {
	return textForms(base64.StdEncoding.EncodeToString([]byte(key + ":")))
}

// secretValues makes a populated value of every type secretHolders finds.
var secretValues = map[string]func(t *testing.T) secretValue{
	"webhook.Config": func(t *testing.T) secretValue {
		cfg := webhookConfig(t)
		return secretValue{&cfg, map[string][]string{"password": textForms(plantedPassword), "header value": textForms(plantedHeader),
			"private key": keyForms(plantedKey())}}
	},
	"webhook.JWEConfig": func(t *testing.T) secretValue {
		return secretValue{&webhook.JWEConfig{PrivateKey: plantedKey(), KeyID: "key_1", VerificationKey: &otherKey().PublicKey},
			map[string][]string{"private key": keyForms(plantedKey())}}
	},
	"webhook.SealOptions": func(t *testing.T) secretValue {
		return secretValue{&webhook.SealOptions{Recipient: &otherKey().PublicKey, Signer: plantedKey(), SignerKeyID: "key_s"},
			map[string][]string{"private key": keyForms(plantedKey())}}
	},
	"webhook.JWEDecrypter": func(t *testing.T) secretValue {
		d, err := webhook.NewJWEDecrypter(webhook.JWEConfig{PrivateKey: plantedKey(), KeyID: "key_1"})
		require.NoError(t, err)
		return secretValue{d, map[string][]string{"private key": keyForms(plantedKey())}}
	},
	"webhook.Verifier": func(t *testing.T) secretValue {
		v, err := webhook.NewVerifier(webhookConfig(t))
		require.NoError(t, err)
		// It keeps digests of the password and header values: printed,
		// they would let a weak password be guessed offline.
		pass, hdr := sha256.Sum256([]byte(plantedPassword)), sha256.Sum256([]byte(plantedHeader))
		return secretValue{v, map[string][]string{"password": textForms(plantedPassword), "header value": textForms(plantedHeader),
			"password digest": textForms(string(pass[:])), "header digest": textForms(string(hdr[:])),
			"private key": keyForms(plantedKey())}}
	},
	"redisclaim.Config": func(t *testing.T) secretValue {
		cfg := redisConfig(t)
		return secretValue{&cfg, map[string][]string{"redis password": textForms(plantedRedisPass)}}
	},
	"redisclaim.Store": func(t *testing.T) secretValue {
		d, err := redisclaim.New(redisConfig(t))
		require.NoError(t, err)
		return secretValue{d, map[string][]string{"redis password": textForms(plantedRedisPass)}}
	},
	"checkout.Client": func(t *testing.T) secretValue {
		c, err := checkout.NewClient("shop", plantedAPIKey, checkout.WithBaseURL("https://api.example"),
			checkout.WithJWE("key_1", plantedKey(), &otherKey().PublicKey))
		require.NoError(t, err)
		return secretValue{c, map[string][]string{"API key": textForms(plantedAPIKey), "Basic credentials": basicForms(plantedAPIKey),
			"private key": keyForms(plantedKey())}}
	},
	"checkout.APIError": func(t *testing.T) secretValue {
		// The service echoes the key in an error reply.
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"status":"ERROR","error_code":"access_denied","error_message":"API key %s is not valid"}`, plantedAPIKey)
		}))
		t.Cleanup(srv.Close)
		c, err := checkout.NewClient("shop", plantedAPIKey, checkout.WithBaseURL(srv.URL))
		require.NoError(t, err)
		_, err = c.GetOrder(context.Background(), "ord_1")
		var ae *checkout.APIError
		require.ErrorAs(t, err, &ae)
		return secretValue{ae, map[string][]string{"API key": textForms(plantedAPIKey)}}
	},
	"checkouttest.Config": func(t *testing.T) secretValue {
		cfg := fakeConfig()
		return secretValue{&cfg, fakeSecrets()}
	},
	"checkouttest.WebhookConfig": func(t *testing.T) secretValue {
		wh := fakeConfig().Webhook
		return secretValue{&wh, map[string][]string{"webhook password": textForms(plantedPassword), "header value": textForms(plantedHeader)}}
	},
	"checkouttest.Server": func(t *testing.T) secretValue {
		s := checkouttest.NewServer(fakeConfig())
		t.Cleanup(s.Close)
		keys := s.JWE()
		secrets := fakeSecrets()
		secrets["merchant private key"] = keyForms(keys.MerchantKey)
		return secretValue{s, secrets}
	},
	"checkouttest.JWEKeys": func(t *testing.T) secretValue {
		s := checkouttest.NewServer(fakeConfig())
		t.Cleanup(s.Close)
		keys := s.JWE()
		return secretValue{&keys, map[string][]string{"merchant private key": append(keyForms(keys.MerchantKey), pemForms(keys.MerchantKeyPEM)...)}}
	},
	"checkouttest.Request": func(t *testing.T) secretValue {
		s := checkouttest.NewServer(fakeConfig())
		t.Cleanup(s.Close)
		c, err := checkout.NewClient("shop", plantedAPIKey, checkout.WithBaseURL(s.URL))
		require.NoError(t, err)
		_, _ = c.GetOrder(context.Background(), "ord_1")
		reqs := s.Requests()
		require.NotEmpty(t, reqs)
		return secretValue{&reqs[0], map[string][]string{"API key": textForms(plantedAPIKey), "Basic credentials": basicForms(plantedAPIKey)}}
	},
}

func webhookConfig(t *testing.T) webhook.Config {
	dec, err := webhook.NewJWEDecrypter(webhook.JWEConfig{PrivateKey: plantedKey()})
	require.NoError(t, err)
	return webhook.Config{
		Username: "shop", Password: plantedPassword, Sources: webhook.ProductionSources,
		Headers: map[string]string{"X-Shop-Key": plantedHeader}, Decrypter: dec,
	}
}

func redisConfig(t *testing.T) redisclaim.Config {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", Username: "shop", Password: plantedRedisPass})
	t.Cleanup(func() { _ = rdb.Close() })
	return redisclaim.Config{Client: rdb, Prefix: "shop:"}
}

func fakeConfig() checkouttest.Config {
	return checkouttest.Config{
		MerchantID: "shop", APIKey: plantedAPIKey, ResponseKey: plantedResponse,
		Webhook: checkouttest.WebhookConfig{URL: "https://shop.example/hooks", Username: "shop", Password: plantedPassword,
			Headers: map[string]string{"X-Shop-Key": plantedHeader}},
	}
}

func fakeSecrets() map[string][]string {
	return map[string][]string{"API key": textForms(plantedAPIKey), "Basic credentials": basicForms(plantedAPIKey),
		"response key": textForms(plantedResponse), "webhook password": textForms(plantedPassword), "header value": textForms(plantedHeader)}
}

// fmtVerbs are the fmt verbs tried, with the flags that change how text and
// numbers print.
var fmtVerbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%#q", "%x", "%X", "% x", "%#x", "%d", "%p", "%b", "%o", "%O",
	"%c", "%U", "%e", "%f", "%g", "%t", "%T", "%08v", "%-40s"}

// renderings returns every rendering of x, by name.
func renderings(x any) map[string]string {
	out := map[string]string{}
	b, err := json.Marshal(x)
	if err != nil {
		out["json.Marshal"] = err.Error()
	} else {
		out["json.Marshal"] = string(b)
	}
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("m", "v", x)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("m", "v", x)
	out["slog text"], out["slog JSON"] = text.String(), js.String()
	for _, verb := range fmtVerbs {
		if verb == "%p" && reflect.ValueOf(x).Kind() == reflect.Struct {
			// %p of a struct value is a misuse go vet reports (go test runs
			// that check): fmt then prints the fields by reflection and
			// calls no method of the type, so only a field type other than
			// string could hide the text, and DESIGN's literal
			// webhook.Config{Password: p} takes a string. Pointers are
			// tried below with %p too.
			continue
		}
		out["fmt "+verb] = fmt.Sprintf(verb, x)
	}
	return out
}

// TestNothingSecretRenders finds every exported type of the library that
// holds a secret (see secretHolders), builds a populated value of each
// and renders it, as a value and as a pointer, with json.Marshal, slog's
// text and JSON handlers and every fmt verb; no rendering may show a
// planted secret in any form. A type the rule finds without a constructor
// in secretValues fails, and so does a constructor of a type it no longer
// finds.
func TestNothingSecretRenders(t *testing.T) {
	found := secretHolders(t)
	require.ElementsMatch(t, found, slices.Collect(maps.Keys(secretValues)),
		"every type holding a secret needs a constructor in secretValues, and only those")
	for _, typ := range found {
		t.Run(typ, func(t *testing.T) {
			build, ok := secretValues[typ]
			require.True(t, ok, "no constructor for %s in secretValues", typ)
			v := build(t)
			ptr := reflect.ValueOf(v.ptr)
			require.Equal(t, reflect.Pointer, ptr.Kind())
			require.Equal(t, typ, ptr.Type().Elem().String(), "the constructor makes the type it is listed for")
			for _, kind := range []string{"value", "pointer"} {
				x := v.ptr
				if kind == "value" {
					if holdsLock(ptr.Type().Elem()) {
						// A value holding a sync.Mutex is never copied: go vet's
						// copylocks check (which go test runs) refuses passing
						// one to fmt or slog, so only the pointer is rendered.
						continue
					}
					x = ptr.Elem().Interface()
				}
				rs := renderings(x)
				for _, secret := range slices.Sorted(maps.Keys(v.secrets)) {
					var leaks []string
					for _, name := range slices.Sorted(maps.Keys(rs)) {
						if slices.ContainsFunc(v.secrets[secret], func(f string) bool { return strings.Contains(rs[name], f) }) {
							leaks = append(leaks, name)
						}
					}
					if len(leaks) > 0 {
						t.Errorf("the %s shows in these renderings of a %s: %s", secret, kind, strings.Join(leaks, ", "))
					}
				}
			}
		})
	}
}

// holdsLock reports whether a value of struct type t holds a sync.Mutex,
// RWMutex, WaitGroup or Once itself (not behind a pointer): go vet refuses
// copying such a value.
func holdsLock(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	if t.PkgPath() == "sync" {
		return true
	}
	for i := range t.NumField() {
		if holdsLock(t.Field(i).Type) {
			return true
		}
	}
	return false
}
