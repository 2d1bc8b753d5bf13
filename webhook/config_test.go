package webhook

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/validation"
)

const (
	testUser = "shopuser"
	testPass = "s3cr3t-Pa55:with:colons"
)

func baseConfig() Config {
	// A copy: some tests change their config's list after NewVerifier.
	return Config{Username: testUser, Password: testPass, Sources: slices.Clone(ProductionSources)}
}

func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	var paths []string
	for _, p := range ve.Problems {
		paths = append(paths, p.Path)
	}
	return paths
}

func TestNewVerifierFailsClosed(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Config)
		paths []string // nil: valid
	}{
		{"valid production", func(*Config) {}, nil},
		{"valid sandbox", func(c *Config) { c.Sources = SandboxSources }, nil},
		{"allow any source", func(c *Config) { c.Sources = nil; c.AllowAnySource = true }, nil},
		{"empty config", func(c *Config) { *c = Config{} }, []string{"Username", "Password", "Sources"}},
		{"missing username", func(c *Config) { c.Username = "" }, []string{"Username"}},
		{"missing password", func(c *Config) { c.Password = "" }, []string{"Password"}},
		{"missing sources", func(c *Config) { c.Sources = nil }, []string{"Sources"}},
		{"empty sources slice", func(c *Config) { c.Sources = []netip.Prefix{} }, []string{"Sources"}},
		{"sources and allow any", func(c *Config) { c.AllowAnySource = true }, []string{"AllowAnySource"}},
		{"invalid source prefix", func(c *Config) { c.Sources = []netip.Prefix{ProductionSources[0], {}} }, []string{"Sources[1]"}},
		{"short mapped prefix", func(c *Config) { c.Sources = []netip.Prefix{netip.MustParsePrefix("::ffff:0:0/80")} }, []string{"Sources[0]"}},
		{"invalid proxy", func(c *Config) { c.TrustedProxies = []netip.Prefix{{}} }, []string{"TrustedProxies[0]"}},
		{"private proxies", func(c *Config) {
			c.TrustedProxies = prefixes("10.0.0.0/8", "fd00:1234::/32", "::ffff:192.168.0.0/112", "::ffff:172.0.0.0/104")
		}, nil},
		// Prefixes this wide, alone or together, hold half the Internet or
		// more: a stranger's peer would count as a proxy and its own
		// X-Forwarded-For entries would decide the source check.
		{"ipv4 proxy half the internet", func(c *Config) { c.TrustedProxies = prefixes("128.0.0.0/1") }, []string{"TrustedProxies[0]"}},
		{"ipv6 proxies every address in two halves", func(c *Config) { c.TrustedProxies = prefixes("::/1", "8000::/1") },
			[]string{"TrustedProxies[0]", "TrustedProxies[1]"}},
		{"ipv4 proxies in quarters", func(c *Config) { c.TrustedProxies = prefixes("192.0.0.0/2", "128.0.0.0/2") },
			[]string{"TrustedProxies[0]", "TrustedProxies[1]"}},
		{"ipv4 proxy wider than /8", func(c *Config) { c.TrustedProxies = prefixes("10.0.0.0/8", "10.0.0.0/7") }, []string{"TrustedProxies[1]"}},
		{"mapped ipv4 proxy wider than /8", func(c *Config) { c.TrustedProxies = prefixes("::ffff:10.0.0.0/103") }, []string{"TrustedProxies[0]"}},
		{"ipv6 proxy wider than /32", func(c *Config) { c.TrustedProxies = prefixes("fd00::/8", "2001:db8::/31") },
			[]string{"TrustedProxies[0]", "TrustedProxies[1]"}},
		{"proxy trusts every ipv4 address", func(c *Config) { c.TrustedProxies = prefixes("10.0.0.0/8", "0.0.0.0/0") }, []string{"TrustedProxies[1]"}},
		{"proxy trusts every ipv6 address", func(c *Config) { c.TrustedProxies = prefixes("::/0") }, []string{"TrustedProxies[0]"}},
		{"proxy overlaps a source", func(c *Config) { c.TrustedProxies = prefixes("13.126.0.0/16") }, []string{"TrustedProxies[0]"}},
		{"mapped proxy overlaps a source", func(c *Config) { c.TrustedProxies = prefixes("::ffff:13.126.232.13/128") }, []string{"TrustedProxies[0]"}},
		{"authorization header", func(c *Config) { c.Headers = map[string]string{"Authorization": "x"} }, []string{"Headers[Authorization]"}},
		{"authorization header lower", func(c *Config) { c.Headers = map[string]string{"authorization": "x"} }, []string{"Headers[authorization]"}},
		{"authorization header mixed", func(c *Config) { c.Headers = map[string]string{"AuThOrIzAtIoN": "x"} }, []string{"Headers[AuThOrIzAtIoN]"}},
		{"bad header name", func(c *Config) { c.Headers = map[string]string{"X Shop": "x"} }, []string{"Headers[X Shop]"}},
		{"empty header value", func(c *Config) { c.Headers = map[string]string{"X-Shop": ""} }, []string{"Headers[X-Shop]"}},
		{"header value with newline", func(c *Config) { c.Headers = map[string]string{"X-Shop": "a\r\nX-Evil: 1"} }, []string{"Headers[X-Shop]"}},
		{"header twice", func(c *Config) { c.Headers = map[string]string{"X-Shop": "a", "x-shop": "b"} }, []string{"Headers[x-shop]"}},
		{"negative body limit", func(c *Config) { c.MaxBodyBytes = -1 }, []string{"MaxBodyBytes"}},
		{"negative dedupe durations", func(c *Config) { c.DedupTTL, c.DedupLease = -1, -1 }, []string{"DedupTTL", "DedupLease"}},
		{"dedupe durations past 10 years", func(c *Config) { c.DedupTTL, c.DedupLease = math.MaxInt64, 11*365*24*time.Hour }, []string{"DedupTTL", "DedupLease"}},
		{"bad realm", func(c *Config) { c.Realm = `a"b` }, []string{"Realm"}},
		{"forbidden username", func(c *Config) { c.Username = "shop.user" }, []string{"Username"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			tt.edit(&cfg)
			v, err := NewVerifier(cfg)
			if tt.paths == nil {
				require.NoError(t, err)
				require.NotNil(t, v)
				return
			}
			require.Nil(t, v)
			require.Equal(t, tt.paths, problemPaths(t, err))
			require.NotContains(t, err.Error(), testPass)
		})
	}
}

// A refused proxy prefix says what is wrong with it and what to list
// instead.
func TestWideProxyMessage(t *testing.T) {
	cfg := baseConfig()
	cfg.TrustedProxies = prefixes("128.0.0.0/1", "2001:db8::/31")
	_, err := NewVerifier(cfg)
	require.ErrorContains(t, err, `checkout: webhook: config: TrustedProxies[0]: "128.0.0.0/1" is wider than /8: `+
		`a stranger's X-Forwarded-For would pass the source check; list your proxies' own addresses; `+
		`TrustedProxies[1]: "2001:db8::/31" is wider than /32: `)
}

func TestValidateUsername(t *testing.T) {
	// Every character spec §5.2 forbids, one by one, in the middle of a name.
	for _, c := range "@!#$%&'*+-/=?^_.{|}~`" {
		name := "shop" + string(c) + "user"
		err := ValidateUsername(name)
		require.Error(t, err, "%q", name)
		require.Equal(t, []string{"Username"}, problemPaths(t, err))
		require.Contains(t, err.Error(), fmt.Sprintf("%q", c))
	}
	for _, bad := range []string{"", "shop:user", "shop user", "shop\tuser", "shop\x00"} {
		require.Error(t, ValidateUsername(bad), "%q", bad)
	}
	for _, good := range []string{"shopuser", "Shop2024", "ŝhop", "SHOP(1)", "a,b;c"} {
		require.NoError(t, ValidateUsername(good), "%q", good)
	}
	// Several forbidden characters are all named once.
	err := ValidateUsername("a.b.c_d")
	require.ErrorContains(t, err, `'.', '_'`)
}

func TestSourcesAreTheSpecsAndFresh(t *testing.T) {
	str := func(ps []netip.Prefix) []string {
		var out []string
		for _, p := range ps {
			require.Equal(t, 32, p.Bits())
			out = append(out, p.Addr().String())
		}
		return out
	}
	require.Equal(t, []string{"13.126.232.13", "35.154.93.248", "65.2.117.44", "3.110.250.172", "40.192.89.124", "40.192.88.11", "18.61.131.193"}, str(ProductionSources))
	require.Equal(t, []string{"13.235.85.36", "3.6.2.61", "18.61.18.92"}, str(SandboxSources))

	// A Verifier copies the list: changing the caller's slice (or the
	// package variable) afterwards does not open the allow-list.
	own := append([]netip.Prefix(nil), ProductionSources...)
	cfg := Config{Username: testUser, Password: testPass, Sources: own}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	own[0] = netip.MustParsePrefix("0.0.0.0/0")
	r := NewTestRequest(cfg, []byte(`{"id":"e","event_name":"ORDER_SUCCEEDED"}`))
	r.RemoteAddr = "198.51.100.7:443"
	_, err = v.Verify(r)
	require.ErrorIs(t, err, ErrForbiddenSource)
}

func TestVerifierCopiesConfig(t *testing.T) {
	cfg := baseConfig()
	cfg.Headers = map[string]string{"X-Shop": "v1"}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	body := []byte(`{"id":"e","event_name":"ORDER_SUCCEEDED"}`)
	r := NewTestRequest(cfg, body)

	// Changing the Config afterwards does not change the Verifier.
	cfg.Sources[0] = netip.MustParsePrefix("10.0.0.0/8")
	cfg.Headers["X-Shop"] = "v2"
	_, err = v.Verify(r)
	require.NoError(t, err)
}

func TestFormattingHidesSecrets(t *testing.T) {
	cfg := baseConfig()
	cfg.Headers = map[string]string{"X-Shop-Token": "header-secret-value"}
	cfg.Decrypter = &JWEDecrypter{}
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x", "%X"} {
		for _, val := range []any{cfg, &cfg, v, *v, []any{cfg}, struct{ C Config }{cfg}} {
			out := fmt.Sprintf(verb, val)
			require.NotContains(t, out, testPass, "%s of %T", verb, val)
			require.NotContains(t, out, "header-secret-value", "%s of %T", verb, val)
			require.NotContains(t, out, fmt.Sprintf("%x", testPass), "%s of %T", verb, val)
		}
	}
	require.Contains(t, fmt.Sprintf("%+v", cfg), "Password: [redacted]")
	require.Contains(t, fmt.Sprintf("%v", cfg), "X-Shop-Token: [redacted]")

	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "cfg", cfg, "verifier", v)
	require.NotContains(t, buf.String(), testPass)
	require.NotContains(t, buf.String(), "header-secret-value")
	require.Contains(t, buf.String(), testUser)
	require.Contains(t, buf.String(), `"verifier":"webhook.Verifier{Credentials: [redacted], Sources: 7 prefixes`)
}

func TestValidationErrorIsShared(t *testing.T) {
	_, err := NewVerifier(Config{})
	var ve *ValidationError
	require.True(t, errors.As(err, &ve))
	require.True(t, ve.Has("Password"))
	require.ErrorIs(t, err, validation.ErrInvalidRequest)
	var ce *validation.ConfigError
	require.ErrorAs(t, err, &ce)
	// A configuration error says so, not "invalid request" (issue 29).
	require.Equal(t, "checkout: webhook: config: Username: required; Password: required; "+
		"Sources: required: use ProductionSources or SandboxSources, or set AllowAnySource", err.Error())
	_, err = NewVerifier(Config{Username: "u", AllowAnySource: true})
	require.EqualError(t, err, "checkout: webhook: config: Password: required")
}
