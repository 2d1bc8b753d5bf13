package webhook

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

func TestClientAddr(t *testing.T) {
	proxies := prefixSet(prefixes("10.0.0.0/8", "fd00::/8"))
	tests := []struct {
		name   string
		remote string
		xff    []string
		want   string // "" = error
	}{
		{"plain ipv4", "13.126.232.13:443", nil, "13.126.232.13"},
		{"ipv4 without port", "13.126.232.13", nil, "13.126.232.13"},
		{"ipv6", "[2001:db8::1]:443", nil, "2001:db8::1"},
		{"ipv6 without port", "2001:db8::1", nil, "2001:db8::1"},
		{"ipv6 with zone", "[fe80::1%eth0]:443", nil, "fe80::1"},
		{"ipv4-mapped", "[::ffff:13.126.232.13]:443", nil, "13.126.232.13"},
		{"garbage remote", "not-an-address", nil, ""},
		{"empty remote", "", nil, ""},
		{"untrusted peer ignores xff", "203.0.113.9:1", []string{"13.126.232.13"}, "203.0.113.9"},
		{"trusted peer, one hop", "10.1.2.3:1", []string{"13.126.232.13"}, "13.126.232.13"},
		{"trusted peer, spoofed left entry ignored", "10.1.2.3:1", []string{"13.126.232.13, 198.51.100.7"}, "198.51.100.7"},
		{"trusted peer, skips trusted hops", "10.1.2.3:1", []string{"13.126.232.13, 10.9.9.9, 10.8.8.8"}, "13.126.232.13"},
		{"trusted peer, several header lines", "10.1.2.3:1", []string{"198.51.100.7", "13.126.232.13", "10.9.9.9"}, "13.126.232.13"},
		{"trusted peer, several lines, rightmost untrusted wins", "10.1.2.3:1", []string{"13.126.232.13", "198.51.100.7"}, "198.51.100.7"},
		{"trusted peer, entry with port", "10.1.2.3:1", []string{"13.126.232.13:5555"}, "13.126.232.13"},
		{"trusted peer, bracketed ipv6", "10.1.2.3:1", []string{"[2001:db8::5]"}, "2001:db8::5"},
		{"trusted peer, mapped entry", "10.1.2.3:1", []string{"::ffff:13.126.232.13"}, "13.126.232.13"},
		{"trusted ipv6 proxy", "[fd00::1]:1", []string{"13.126.232.13"}, "13.126.232.13"},
		{"trusted mapped proxy", "[::ffff:10.1.2.3]:1", []string{"13.126.232.13"}, "13.126.232.13"},
		{"trusted peer, no xff", "10.1.2.3:1", nil, "10.1.2.3"},
		{"trusted peer, all hops trusted", "10.1.2.3:1", []string{"10.7.7.7, 10.8.8.8"}, "10.7.7.7"},
		{"malformed rightmost entry", "10.1.2.3:1", []string{"13.126.232.13, bogus"}, ""},
		{"empty entry", "10.1.2.3:1", []string{"13.126.232.13,,10.9.9.9"}, ""},
		{"trailing comma", "10.1.2.3:1", []string{"13.126.232.13,"}, ""},
		{"leading comma", "10.1.2.3:1", []string{",13.126.232.13, 10.9.9.9"}, "13.126.232.13"},
		{"malformed entry left of the client is ignored", "10.1.2.3:1", []string{"bogus, 13.126.232.13"}, "13.126.232.13"},
		{"malformed entry behind trusted hops", "10.1.2.3:1", []string{"bogus, 10.9.9.9"}, ""},
		{"unknown as client", "10.1.2.3:1", []string{"unknown"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: tt.remote, Header: http.Header{}}
			for _, x := range tt.xff {
				r.Header.Add("X-Forwarded-For", x)
			}
			got, err := clientAddr(r, proxies)
			if tt.want == "" {
				require.ErrorIs(t, err, ErrForbiddenSource)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got.String())
		})
	}
}

// Spoofing through the whole Verify path (spec §5.6).
func TestVerifySourceSpoofing(t *testing.T) {
	cfg := baseConfig()
	cfg.TrustedProxies = prefixes("10.0.0.0/8", "2001:db8:ffff::/48")
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	body := []byte(`{"id":"evt_1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"o1","status":"CHARGED"}}}`)

	tests := []struct {
		name   string
		remote string
		xff    []string
		ok     bool
	}{
		{"allowed source, direct", "13.126.232.13:443", nil, true},
		{"allowed source, ipv4-mapped", "[::ffff:13.126.232.13]:443", nil, true},
		{"stranger", "198.51.100.7:443", nil, false},
		{"stranger forging xff", "198.51.100.7:443", []string{"13.126.232.13"}, false},
		{"stranger forging xff, two lines", "198.51.100.7:443", []string{"13.126.232.13", "13.126.232.13"}, false},
		{"allowed source behind trusted proxy", "10.0.0.5:80", []string{"13.126.232.13"}, true},
		{"allowed source behind ipv6 trusted proxy", "[2001:db8:ffff::1]:80", []string{"13.126.232.13"}, true},
		{"allowed source behind mapped trusted proxy", "[::ffff:10.0.0.5]:80", []string{"::ffff:13.126.232.13"}, true},
		{"allowed source behind two trusted proxies", "10.0.0.5:80", []string{"13.126.232.13, 10.0.0.9"}, true},
		{"stranger behind trusted proxy forging left entry", "10.0.0.5:80", []string{"13.126.232.13, 198.51.100.7"}, false},
		{"trusted proxy itself is not a source", "10.0.0.5:80", nil, false},
		{"malformed xff from trusted proxy", "10.0.0.5:80", []string{"13.126.232.13, nonsense"}, false},
		{"sandbox address refused in production", "13.235.85.36:443", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewTestRequest(cfg, body)
			r.RemoteAddr = tt.remote
			for _, x := range tt.xff {
				r.Header.Add("X-Forwarded-For", x)
			}
			ev, err := v.Verify(r)
			if tt.ok {
				require.NoError(t, err)
				require.Equal(t, "evt_1", ev.ID)
				return
			}
			require.ErrorIs(t, err, ErrForbiddenSource)
			require.Nil(t, ev)
		})
	}
}

func TestIPv6Sources(t *testing.T) {
	cfg := baseConfig()
	cfg.Sources = prefixes("2001:db8:1::/64", "::ffff:192.0.2.0/120")
	v, err := NewVerifier(cfg)
	require.NoError(t, err)
	body := []byte(`{"event_name":"X"}`)
	for remote, ok := range map[string]bool{
		"[2001:db8:1::42]:1":   true,
		"[2001:db8:2::42]:1":   false,
		"192.0.2.77:1":         true, // the mapped prefix matches plain IPv4
		"[::ffff:192.0.2.7]:1": true,
		"192.0.3.1:1":          false,
	} {
		r := NewTestRequest(cfg, body)
		r.RemoteAddr = remote
		_, err := v.Verify(r)
		if ok {
			require.NoError(t, err, remote)
		} else {
			require.ErrorIs(t, err, ErrForbiddenSource, remote)
		}
	}
}

// FuzzClientAddr reads X-Forwarded-For as a stranger may write it, behind a
// trusted proxy or not. It never panics, and the address it finds is the
// peer, or an entry of the header with nothing but trusted hops to its
// right: entries left of the first untrusted one never decide.
func FuzzClientAddr(f *testing.F) {
	for _, seed := range []struct{ remote, line1, line2 string }{
		{"10.1.2.3:443", "13.126.232.13", ""},
		{"10.1.2.3:443", "198.51.100.7, 13.126.232.13", "10.9.9.9"},
		{"[fd00::1]:443", "2001:db8::1, [2001:db8::2]:8443", ""},
		{"10.1.2.3:443", "::ffff:13.126.232.13, fe80::1%eth0", "unknown"},
		{"203.0.113.9:1", "13.126.232.13", ""},
		{"10.1.2.3", "1.2.3.4:80, , 10.0.0.1", "  "},
		{"[::ffff:10.1.2.3]:1", "13.126.232.13,13.126.232.14,", "[::1]"},
	} {
		f.Add(seed.remote, seed.line1, seed.line2)
	}
	proxies := prefixSet(prefixes("10.0.0.0/8", "fd00::/8"))
	f.Fuzz(func(t *testing.T, remote, line1, line2 string) {
		r := &http.Request{RemoteAddr: remote, Header: http.Header{}}
		var entries []string
		for _, line := range []string{line1, line2} {
			if line != "" {
				r.Header.Add("X-Forwarded-For", line)
				entries = append(entries, strings.Split(line, ",")...)
			}
		}
		got, err := clientAddr(r, proxies)
		peer, peerOK := parseHost(remote)
		if err != nil {
			require.ErrorIs(t, err, ErrForbiddenSource)
			require.False(t, peerOK && !proxies.contains(peer), "an untrusted peer is the answer, whatever the header says")
			return
		}
		require.True(t, peerOK)
		require.True(t, got.IsValid() && !got.Is4In6() && got.Zone() == "", "%v", got)
		if got == peer || !proxies.contains(peer) {
			require.Equal(t, peer, got)
			return
		}
		// got came from the header: every entry to its right is a
		// trusted hop.
		i := len(entries) - 1
		for ; i >= 0; i-- {
			a, ok := parseHost(entries[i])
			require.True(t, ok, "an unparseable entry right of the client fails closed")
			if a == got {
				break
			}
			require.True(t, proxies.contains(a), "entry %q right of the client is not a trusted hop", entries[i])
		}
		require.GreaterOrEqual(t, i, 0, "the client %v is not in the header", got)
	})
}
