package webhook

import (
	"encoding/base64"
	"strings"
)

// parseBasic extracts the credentials of an "Authorization: Basic ..."
// header value (RFC 7617): the scheme name in any case, one or
// more spaces, then standard base64 (with padding) of "user:password". The
// user ends at the first colon; the password may hold colons. Anything else,
// including invalid base64 and a missing colon, is ok == false. It never
// panics, whatever the input.
func parseBasic(h string) (user, pass string, ok bool) {
	const scheme = "Basic"
	if len(h) <= len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) || h[len(scheme)] != ' ' {
		return "", "", false
	}
	token := strings.TrimLeft(h[len(scheme):], " ")
	token = strings.TrimRight(token, " ")
	if token == "" {
		return "", "", false
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(token)
	if err != nil {
		return "", "", false
	}
	s := string(raw)
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// BasicAuthorization returns the Authorization header value the service
// sends for these credentials: "Basic " + base64(user:password).
// It is what NewTestRequest uses, and what a fake sender needs.
func BasicAuthorization(username, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(username+":"+password))
}
