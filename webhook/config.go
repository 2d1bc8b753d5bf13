package webhook

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/netip"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/payorch/checkout-go/internal/httpfield"
	"github.com/payorch/checkout-go/validation"
)

// DefaultMaxBodyBytes is the body limit used when Config.MaxBodyBytes is 0.
// The largest published sample is under 5 KiB; 1 MiB leaves room for any
// order with many refunds while bounding what a stranger can make us read.
const DefaultMaxBodyBytes = 1 << 20

// DefaultDuplicateWait is the wait used when Config.DuplicateWait is 0: long
// enough for a typical merchant function, short enough that the sender's
// request does not time out first.
const DefaultDuplicateWait = 10 * time.Second

// Config describes how the service delivers webhooks to this receiver. It is
// read once by NewVerifier, which copies everything it keeps: changing a
// Config (or the slices and map it holds) afterwards has no effect on the
// Verifier.
//
// Formatting a Config with fmt (%v, %+v, %#v, %s, %x, %d...), logging it
// with log/slog or encoding it with encoding/json never shows the password
// or the custom header values: each prints [Config.String]. The exception
// is fmt's %p of a Config value (not a pointer), a misuse go vet reports,
// which fmt prints field by field without asking the Config.
type Config struct {
	// Username is the webhook username configured in the dashboard; the
	// service sends it as the user-id of "Authorization: Basic
	// base64(username:password)". Required; it must pass
	// ValidateUsername.
	Username string

	// Password is the webhook password configured in the dashboard, the
	// second half of the Basic credentials. Required. It is
	// kept only as a SHA-256 digest, compared in constant time, and
	// never printed.
	Password string

	// Sources are the addresses webhooks may come from: use
	// ProductionSources or SandboxSources, possibly extended. Required
	// unless AllowAnySource is set. IPv4-mapped IPv6 prefixes are accepted
	// and matched as IPv4.
	Sources []netip.Prefix

	// AllowAnySource turns the source check off. It is meant for tests, and
	// for receivers that sit behind the merchant's own gateway which already
	// enforces the allow-list. It may not be combined with Sources.
	AllowAnySource bool

	// TrustedProxies are the peers (load balancers, reverse proxies) whose
	// X-Forwarded-For header is believed, read from the right. A request
	// whose peer is not in this list is judged by its peer address alone,
	// whatever headers it carries. The RFC 7239 Forwarded header is not
	// read: list only proxies that append to X-Forwarded-For. A prefix
	// wider than /8 (IPv4) or /32 (IPv6), or one overlapping Sources, is
	// refused: either would let a stranger's own X-Forwarded-For entries
	// decide.
	TrustedProxies []netip.Prefix

	// Headers are the custom webhook headers configured in the dashboard,
	// name to value. Each must arrive exactly once with exactly this value. A name may not be Authorization in any case.
	Headers map[string]string

	// MaxBodyBytes bounds the body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Decrypter opens encrypted bodies ({"JWT": "..."}). When
	// nil such a body is refused with ErrNoDecrypter (Handler: 500, so the
	// service keeps re-sending until the merchant configures one). When
	// set, a plain JSON body is refused with ErrNotEncrypted (Handler: 500)
	// unless AcceptPlain is set: anyone holding the Basic credentials could
	// otherwise send plain JSON and skip the decryption and the signature.
	Decrypter Decrypter

	// AcceptPlain lets plain JSON bodies through while a Decrypter is
	// configured, for the switch-over to encrypted webhooks: set it while
	// the service may still send plain JSON (before JWT webhooks are
	// activated in the dashboard, and until the last plain re-send has
	// arrived), then clear it. Without a Decrypter plain JSON is always
	// accepted and AcceptPlain has no effect.
	AcceptPlain bool

	// Deduplicator remembers which events were processed.
	// Nil means a NewMemoryDeduplicator with its defaults, private to the
	// Verifier. Use a shared one (Redis, SQL) when several instances serve
	// the webhook URL.
	Deduplicator Deduplicator

	// DuplicateWait bounds how long a duplicate delivery waits for the
	// first delivery of the same event, still running, to finish (see
	// Handler): 0 means DefaultDuplicateWait; a negative value means do
	// not wait, reply 409 at once. When the wait ends first the reply is
	// 409 and the service re-sends later. Keep it below the
	// sender's timeout.
	DuplicateWait time.Duration

	// Logger receives one record per rejected or failed delivery (warn or
	// error) and per processed one (debug). Records hold the event id and
	// name (cut at 128 bytes), addresses, the failed check, and the text of
	// the error the merchant's function or Decrypter returned (keep secrets
	// and bodies out of those); never credentials, header values or bodies.
	// Nil means silent.
	Logger *slog.Logger

	// Realm is sent in the WWW-Authenticate header of 401 replies; the
	// default is "webhook".
	Realm string
}

// forbiddenUsernameChars are the characters the dashboard refuses in the
// webhook username, plus ':' which Basic authentication cannot carry in a
// user-id (RFC 7617).
const forbiddenUsernameChars = "@!#$%&'*+-/=?^_.{|}~`:"

// ValidateUsername reports whether u can be the webhook username configured
// in the dashboard: not empty, none of the characters
// @ ! # $ % & ' * + - / = ? ^ _ . { | } ~ and the backtick, no ':' (which
// Basic authentication cannot carry, RFC 7617) and no control or space
// characters. The error is a *ValidationError at path "Username", its
// message starting "checkout: validate webhook username: ".
func ValidateUsername(u string) error {
	v := validation.Error{Op: "validate webhook username"}
	validateUsername(&v, u)
	return v.Err()
}

func validateUsername(c *validation.Error, u string) {
	if u == "" {
		c.Add("Username", "required")
		return
	}
	var bad []string
	seen := map[rune]bool{}
	for _, r := range u {
		if (strings.ContainsRune(forbiddenUsernameChars, r) || r <= ' ' || r == 0x7f) && !seen[r] {
			seen[r] = true
			bad = append(bad, strconv.QuoteRune(r))
		}
	}
	if len(bad) > 0 {
		c.Add("Username", "must not contain "+strings.Join(bad, ", "))
	}
}

// Validate checks the Config the way NewVerifier does and returns a
// *ValidationError listing every problem (its message starts
// "checkout: validate webhook config: "), or nil.
func (c Config) Validate() error { return c.validate("validate webhook config") }

// validate checks c for the operation op (Validate, NewVerifier).
func (c Config) validate(op string) error {
	col := validation.Error{Op: op}
	validateUsername(&col, c.Username)
	if c.Password == "" {
		col.Add("Password", "required")
	}
	switch {
	case c.AllowAnySource && len(c.Sources) > 0:
		col.Add("AllowAnySource", "set either Sources or AllowAnySource, not both")
	case !c.AllowAnySource && len(c.Sources) == 0:
		col.Add("Sources", "required: use ProductionSources or SandboxSources, or set AllowAnySource")
	}
	for i, p := range c.Sources {
		if _, ok := normalizePrefix(p); !ok {
			col.Add(validation.Index("Sources", i), "invalid prefix "+strconv.Quote(p.String()))
		}
	}
	for i, p := range c.TrustedProxies {
		np, ok := normalizePrefix(p)
		path := validation.Index("TrustedProxies", i)
		switch {
		case !ok:
			col.Add(path, "invalid prefix "+strconv.Quote(p.String()))
		case np.Bits() < minProxyBits(np):
			// Every peer in it would be a proxy, and every X-Forwarded-For
			// entry from it a trusted hop: a stranger's peer would count
			// as a proxy and its own entries would decide.
			col.Add(path, fmt.Sprintf("%q is wider than /%d: a stranger's X-Forwarded-For would pass the source check; list your proxies' own addresses", p.String(), minProxyBits(np)))
		default:
			for _, s := range c.Sources {
				if ns, ok := normalizePrefix(s); ok && ns.Overlaps(np) {
					// A service address counted as a proxy hop is skipped
					// while reading X-Forwarded-For, so the entries a
					// stranger wrote to its left would be believed.
					col.Add(path, strconv.Quote(p.String())+" overlaps the source "+strconv.Quote(s.String())+": a webhook source cannot be your proxy")
					break
				}
			}
		}
	}
	canonical := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(c.Headers)) {
		path := "Headers[" + name + "]"
		cn := textproto.CanonicalMIMEHeaderKey(name)
		switch {
		case canonical[cn]:
			col.Add(path, "the same header is configured twice (names are case-insensitive)")
		case !httpfield.ValidName(name):
			col.Add(path, "not a valid HTTP header name")
		case strings.EqualFold(name, "Authorization"):
			col.Add(path, "the name must not be Authorization")
		}
		canonical[cn] = true
		v := c.Headers[name]
		if v == "" {
			col.Add(path, "value required")
		} else if !validHeaderValue(v) {
			col.Add(path, "value holds characters a header cannot carry")
		}
	}
	if c.MaxBodyBytes < 0 {
		col.Add("MaxBodyBytes", "must not be negative")
	}
	if strings.ContainsAny(c.Realm, "\"\\\r\n") {
		col.Add("Realm", `must not contain quotes, backslashes or line breaks`)
	}
	return col.Err()
}

// minProxyBits is the widest prefix a trusted proxy may have: /8 for IPv4
// (a cloud provider's largest block), /32 for IPv6 (a whole provider's
// allocation). A proxy list is the merchant's own load balancers; a wider
// prefix holds strangers.
func minProxyBits(p netip.Prefix) int {
	if p.Addr().Is4() {
		return 8
	}
	return 32
}

// validHeaderValue refuses what cannot be sent in a header (see
// httpfield.ValidValue) and surrounding white space, which HTTP strips and
// would never match.
func validHeaderValue(s string) bool {
	return strings.TrimSpace(s) == s && httpfield.ValidValue(s)
}

const redacted = "[redacted]"

// String describes the Config without secrets: the password and the custom
// header values are replaced by "[redacted]".
func (c Config) String() string {
	var b strings.Builder
	b.WriteString("webhook.Config{Username: ")
	b.WriteString(strconv.Quote(c.Username))
	b.WriteString(", Password: ")
	if c.Password == "" {
		b.WriteString(`""`)
	} else {
		b.WriteString(redacted)
	}
	fmt.Fprintf(&b, ", Sources: %v, AllowAnySource: %t, TrustedProxies: %v, Headers: {", c.Sources, c.AllowAnySource, c.TrustedProxies)
	for i, k := range slices.Sorted(maps.Keys(c.Headers)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(textproto.CanonicalMIMEHeaderKey(k))
		b.WriteString(": " + redacted)
	}
	fmt.Fprintf(&b, "}, MaxBodyBytes: %d, Decrypter: %s, AcceptPlain: %t, Deduplicator: %s, DuplicateWait: %s, Logger: %s, Realm: %q}",
		c.MaxBodyBytes, setOrNil(c.Decrypter != nil), c.AcceptPlain, setOrNil(c.Deduplicator != nil), c.DuplicateWait, setOrNil(c.Logger != nil), c.Realm)
	return b.String()
}

func setOrNil(set bool) string {
	if set {
		return "set"
	}
	return "nil"
}

// GoString is String, so %#v does not print the password either.
func (c Config) GoString() string { return c.String() }

// Format makes every fmt verb print String, so no verb (%v, %+v, %#v, %d,
// %x...) can reach the password through reflection.
func (c Config) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue makes log/slog print the Config without secrets.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// MarshalJSON writes [Config.String] as a JSON string, so that
// encoding/json (and slog's JSON handler, a Config nested in a logged
// value) never writes the password or header values. A Config is not read
// back from JSON.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }
