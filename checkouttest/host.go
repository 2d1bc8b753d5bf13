package checkouttest

import (
	"errors"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// hostPolicy is the Host names the fake serves, so that a page on a DNS
// name rebound to the fake's address reaches nothing: loopback names and
// addresses (localhost, *.localhost, 127.0.0.0/8, ::1) wherever it listens,
// the addresses it listens on (every interface's for an unspecified one),
// and the names of Config.Hosts. A port, when given, must be a port.
type hostPolicy struct {
	addrs map[netip.Addr]bool // the listener's own, unmapped
	names map[string]bool     // Config.Hosts, lower case
}

// newHostPolicy is the policy of a fake listening on addr, with hosts
// (Config.Hosts, already checked by checkHost) served too.
func newHostPolicy(addr net.Addr, hosts []string) hostPolicy {
	p := hostPolicy{addrs: map[netip.Addr]bool{}, names: map[string]bool{}}
	for _, h := range hosts {
		if a, ok := parseHostAddr(h); ok {
			p.addrs[a] = true
		} else {
			p.names[strings.ToLower(strings.TrimSuffix(h, "."))] = true
		}
	}
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return p
	}
	if !ta.IP.IsUnspecified() {
		if a, ok := netip.AddrFromSlice(ta.IP); ok {
			p.addrs[a.Unmap()] = true
		}
		return p
	}
	// Every interface: the addresses of this machine's interfaces now.
	ifAddrs, _ := net.InterfaceAddrs()
	for _, ia := range ifAddrs {
		if pfx, err := netip.ParsePrefix(ia.String()); err == nil {
			p.addrs[pfx.Addr().Unmap().WithZone("")] = true
		}
	}
	return p
}

// allows reports whether the fake serves a request whose Host is host.
// A request without Host (HTTP/1.0) comes from no browser and is served.
func (p hostPolicy) allows(host string) bool {
	if host == "" {
		return true
	}
	name, port, err := net.SplitHostPort(host)
	switch {
	case err == nil && !isPortText(port):
		return false // "[::ffff:7f00:1]:80.evil.example" is no port
	case err != nil:
		name = host // no port
	}
	if a, ok := parseHostAddr(name); ok {
		return a.IsLoopback() || p.addrs[a]
	}
	if strings.ContainsAny(host, "[]") { // brackets hold an IPv6 address only
		return false
	}
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	return name == "localhost" || strings.HasSuffix(name, ".localhost") || p.names[name]
}

// parseHostAddr reads an IP address as a Host header writes it (an IPv6
// one in brackets), unmapped ("::ffff:127.0.0.1" is 127.0.0.1).
func parseHostAddr(s string) (netip.Addr, bool) {
	if inner, ok := strings.CutPrefix(s, "["); ok {
		if s, ok = strings.CutSuffix(inner, "]"); !ok {
			return netip.Addr{}, false
		}
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// isPortText reports whether s is the port of a Host header: empty (RFC
// 3986 allows "host:") or digits up to 65535.
func isPortText(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 5 || strings.Trim(s, "0123456789") != "" {
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n <= 65535
}

// checkHost says what is wrong with an entry of Config.Hosts: it must be a
// DNS name or an IP address, without a scheme, a port or a wildcard.
func checkHost(h string) error {
	if _, ok := parseHostAddr(h); ok {
		return nil
	}
	name := strings.TrimSuffix(h, ".")
	if name == "" || len(name) > 253 {
		return errors.New("is not a host name or IP address")
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
			strings.Trim(strings.ToLower(label), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return errors.New("is not a host name or IP address (a name like fake.test or an address, without scheme, port or *)")
		}
	}
	return nil
}

func (s *Server) hostAllowed(host string) bool { return s.hosts.allows(host) }
