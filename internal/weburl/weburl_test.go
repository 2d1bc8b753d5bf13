package weburl

import (
	"net/url"
	"testing"
	"unicode/utf8"
)

var samples = []string{
	"https://shop.example.com/webhooks", "http://localhost/x", "https://a", "https://A-b.C0/p?q=1&r=<2>#frag/x",
	"https://shop.example.com?x", "https://shop.example.com#", "https://.", "https://-", "https://x/ü",
	"https://", "http://", "https:///x", "ftp://x", "HTTPS://x", "https:x", "//x", "",
	"https://user@x", "https://x:443/", "https://[::1]/", "https://x/%zz", "https://x/%20", "https://x/a b",
	"https://x\x00/", "https://x/\x7f", "https://x_y/", "https://x/\t", "https://ex ample.com", "https://x/?a=%",
	"https://x/#%", "http://127.0.0.1:8080/hook", "https://\xff/", "https://x/\xff", "https://münchen.de/",
}

func check(t *testing.T, s string) {
	https, host, ok := Plain(s)
	if !ok {
		return
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("Plain(%q) ok, but url.Parse: %v", s, err)
	}
	want := "http"
	if https {
		want = "https"
	}
	if u.Scheme != want || u.Host != host || u.Hostname() != host || u.User != nil || !utf8.ValidString(s) {
		t.Fatalf("Plain(%q) = %v %q; url.Parse: scheme %q host %q hostname %q", s, https, host, u.Scheme, u.Host, u.Hostname())
	}
}

// TestPlainAgreesWithParse checks that every URL Plain decides reads
// the same through url.Parse, and that it decides the common ones.
func TestPlainAgreesWithParse(t *testing.T) {
	for _, s := range samples {
		check(t, s)
	}
	for _, s := range []string{"https://shop.example.com/webhooks", "http://localhost/x", "https://a.b/c?d#e"} {
		if _, _, ok := Plain(s); !ok {
			t.Errorf("Plain(%q) decides nothing", s)
		}
	}
	for _, s := range []string{"https://x/%20", "https://user@x", "https://x:443/", "HTTPS://x", "https://", "https://x/a b"} {
		if _, _, ok := Plain(s); ok {
			t.Errorf("Plain(%q) decided; it should leave it to url.Parse", s)
		}
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range samples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { check(t, s) })
}
