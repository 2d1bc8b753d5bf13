package webhook

import (
	"net/http"
	"net/netip"
	"strings"
)

// ProductionSources are the addresses the service sends production
// webhooks from. Treat it as read-only: to add one of your own, build a new
// slice (append(slices.Clone(ProductionSources), x)).
var ProductionSources = hostPrefixes(
	"13.126.232.13", "35.154.93.248", "65.2.117.44", "3.110.250.172",
	"40.192.89.124", "40.192.88.11", "18.61.131.193",
)

// SandboxSources are the addresses of the service's sandbox webhooks.
var SandboxSources = hostPrefixes("13.235.85.36", "3.6.2.61", "18.61.18.92")

func hostPrefixes(addrs ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(addrs))
	for i, a := range addrs {
		ip := netip.MustParseAddr(a) // constants above; covered by tests
		out[i] = netip.PrefixFrom(ip, ip.BitLen())
	}
	return out
}

// normalizePrefix unmaps an IPv4-mapped prefix and masks host bits; ok is
// false for a prefix that cannot match an unmapped address.
func normalizePrefix(p netip.Prefix) (netip.Prefix, bool) {
	if !p.IsValid() {
		return netip.Prefix{}, false
	}
	a := p.Addr().WithZone("")
	if a.Is4In6() {
		if p.Bits() < 96 {
			return netip.Prefix{}, false
		}
		return netip.PrefixFrom(a.Unmap(), p.Bits()-96).Masked(), true
	}
	return netip.PrefixFrom(a, p.Bits()).Masked(), true
}

// prefixSet is an immutable list of normalized prefixes.
type prefixSet []netip.Prefix

func (s prefixSet) contains(a netip.Addr) bool {
	for _, p := range s {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseHost parses an address of RemoteAddr or X-Forwarded-For ("1.2.3.4",
// "1.2.3.4:5678", "::1", "[::1]:5678", with or without a zone), unmapped
// and zone-free.
func parseHost(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return netip.Addr{}, false
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	// "[::1]" without a port.
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		if a, err := netip.ParseAddr(s[1 : len(s)-1]); err == nil {
			return a.Unmap().WithZone(""), true
		}
	}
	return netip.Addr{}, false
}

// clientAddr finds the client: the peer (RemoteAddr) unless it is a
// trusted proxy; then X-Forwarded-For is read from the right, skipping
// trusted hops, and the first untrusted entry is the client (entries to its
// left were written by the client itself). A malformed entry fails closed.
func clientAddr(r *http.Request, trusted prefixSet) (netip.Addr, error) {
	peer, ok := parseHost(r.RemoteAddr)
	if !ok {
		return netip.Addr{}, wrap(ErrForbiddenSource, "unparseable remote address")
	}
	if len(trusted) == 0 || !trusted.contains(peer) {
		return peer, nil
	}
	lines := r.Header.Values("X-Forwarded-For")
	client := peer
	for i := len(lines) - 1; i >= 0; i-- {
		entries := strings.Split(lines[i], ",")
		for j := len(entries) - 1; j >= 0; j-- {
			a, ok := parseHost(entries[j])
			if !ok {
				return netip.Addr{}, wrap(ErrForbiddenSource, "malformed X-Forwarded-For")
			}
			client = a
			if !trusted.contains(a) {
				return a, nil
			}
		}
	}
	// Every hop is a trusted proxy: the leftmost one is the farthest we know.
	return client, nil
}
