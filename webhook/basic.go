package webhook

import (
	"encoding/base64"
	"strings"
)

// parseBasic reads "Basic <base64(user:password)>" (RFC 7617): the scheme
// in any case, spaces, strict padded base64; the user ends at the first
// colon. Anything else is ok == false; it never panics.
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
// sends for these credentials, as NewTestRequest and a fake sender need.
func BasicAuthorization(username, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(username+":"+password))
}
