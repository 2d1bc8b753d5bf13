// Package weburl reads a URL the merchant gives the service to send a
// customer or a webhook to, for the client's rules (the root package) and
// its advice (package lint) alike. The fake (checkouttest) keeps its own
// reading: it judges the wire, not the SDK.
package weburl

import (
	"net/netip"
	"net/url"
	"strings"
)

// Facts are what the rules and the advice ask of such a URL.
type Facts struct {
	Absolute bool // an http or https URL with a host
	User     bool // it carries user information (user:password@)
	Secure   bool // https, or http on a loopback host (a test's receiver)
}

// Read returns the facts of s; an empty or unparsable s has none.
func Read(s string) Facts {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return Facts{}
	}
	return Facts{
		Absolute: true,
		User:     u.User != nil,
		Secure:   u.Scheme == "https" || Loopback(u.Hostname()),
	}
}

// Loopback reports whether host is "localhost" (in any case) or a loopback
// IP address.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
