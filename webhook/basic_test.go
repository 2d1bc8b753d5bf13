package webhook

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestParseBasic(t *testing.T) {
	tests := []struct {
		name, header string
		user, pass   string
		ok           bool
	}{
		{"plain", "Basic " + b64("shop:pw"), "shop", "pw", true},
		{"scheme lower case", "basic " + b64("shop:pw"), "shop", "pw", true},
		{"scheme upper case", "BASIC " + b64("shop:pw"), "shop", "pw", true},
		{"several spaces", "Basic   " + b64("shop:pw"), "shop", "pw", true},
		{"trailing space", "Basic " + b64("shop:pw") + " ", "shop", "pw", true},
		{"password with colons", "Basic " + b64("shop:a:b:c"), "shop", "a:b:c", true},
		{"empty password", "Basic " + b64("shop:"), "shop", "", true},
		{"empty user", "Basic " + b64(":pw"), "", "pw", true},
		{"utf-8", "Basic " + b64("šhop:пароль"), "šhop", "пароль", true},
		{"empty", "", "", "", false},
		{"scheme only", "Basic", "", "", false},
		{"scheme and space", "Basic ", "", "", false},
		{"no space", "Basic" + b64("shop:pw"), "", "", false},
		{"tab separator", "Basic\t" + b64("shop:pw"), "", "", false},
		{"other scheme", "Bearer " + b64("shop:pw"), "", "", false},
		{"prefix of scheme", "Basi " + b64("shop:pw"), "", "", false},
		{"no colon", "Basic " + b64("shoppw"), "", "", false},
		{"bad base64", "Basic !!!!", "", "", false},
		{"unpadded base64", "Basic " + strings.TrimRight(b64("shop:pw"), "="), "", "", false},
		{"url-safe alphabet", "Basic " + base64.URLEncoding.EncodeToString([]byte("sh>?:p>?")), "", "", false},
		{"two tokens", "Basic " + b64("shop:pw") + " " + b64("x:y"), "", "", false},
		{"non-canonical padding bits", "Basic c2hvcDpwdx==", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, p, ok := parseBasic(tt.header)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.user, u)
			require.Equal(t, tt.pass, p)
		})
	}
}

func TestBasicAuthorizationRoundTrip(t *testing.T) {
	h := BasicAuthorization("shop", "p:w")
	require.Equal(t, "Basic c2hvcDpwOnc=", h)
	u, p, ok := parseBasic(h)
	require.True(t, ok)
	require.Equal(t, "shop", u)
	require.Equal(t, "p:w", p)
}

// FuzzParseBasic: never panics; whatever it accepts re-encodes to the same
// credentials.
func FuzzParseBasic(f *testing.F) {
	for _, s := range []string{"Basic " + b64("shop:pw"), "basic " + b64(":"), "Basic", "Basic ====", "Basic " + b64("a:b:c"), "Bearer x", "Basic \x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		u, p, ok := parseBasic(h)
		if !ok {
			if u != "" || p != "" {
				t.Fatalf("rejected header returned credentials")
			}
			return
		}
		if strings.Contains(u, ":") {
			t.Fatalf("user %q holds a colon", u)
		}
		u2, p2, ok2 := parseBasic(BasicAuthorization(u, p))
		if !ok2 || u2 != u || p2 != p {
			t.Fatalf("round trip of %q changed: %q %q", h, u2, p2)
		}
	})
}
