// Package weburl decides the common case of an absolute http or https URL
// without url.Parse, which allocates: validation runs on every request, and
// the URLs it checks are almost always plain ones.
package weburl

// Plain reports whether s is "http://" or "https://" followed by a host of
// ASCII letters, digits, dots and hyphens, then nothing, or "/", "?" or "#"
// and more printable ASCII other than "%" and space. url.Parse reads every
// such s without error, with that scheme (https says which) and that host
// (no port, no user information), and s is valid UTF-8. When Plain
// reports false, nothing is decided: ask url.Parse.
func Plain(s string) (https bool, host string, ok bool) {
	rest, https := cut(s, "https://")
	if !https {
		if rest, ok = cut(s, "http://"); !ok {
			return false, "", false
		}
	}
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false, "", false
		}
	}
	if end == 0 {
		return false, "", false
	}
	for i := end; i < len(rest); i++ {
		if c := rest[i]; c <= ' ' || c >= 0x7f || c == '%' {
			return false, "", false
		}
	}
	return https, rest[:end], true
}

// cut returns s without prefix, and whether s starts with it.
func cut(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return s, false
	}
	return s[len(prefix):], true
}
