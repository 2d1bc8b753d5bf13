// Package httpfield checks the header fields the SDK lets a merchant
// choose: the request headers of the client and the headers the webhook
// handler requires.
package httpfield

import "strings"

// ValidName reports whether s is an HTTP token (RFC 9110, section 5.6.2), the
// form a header field name must have: one or more letters, digits or any
// of !#$%&'*+-.^_`|~.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// ValidValue reports whether s can be sent as a header field's value: it
// holds no control character but the tab (no CR or LF, which would end the
// field) and no DEL.
func ValidValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
