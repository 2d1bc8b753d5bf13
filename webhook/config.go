package webhook

import (
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

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
	"github.com/payorch/checkout-go/internal/httpfield"
	"github.com/payorch/checkout-go/validation"
)

// Defaults of a Config's zero fields.
const (
	DefaultMaxBodyBytes  = 1 << 20          // the largest published sample is under 5 KiB
	DefaultDuplicateWait = 10 * time.Second // below the sender's timeout
	DefaultReadTimeout   = 10 * time.Second // a 1 MiB body at 100 KiB/s
)

// Config describes how the service delivers webhooks to this receiver.
// NewVerifier copies everything it keeps. No fmt verb, log/slog record or
// json.Marshal of a Config shows the password or the header values.
type Config struct {
	// Username and Password are the webhook's Basic credentials from the
	// dashboard. Required; Username must pass ValidateUsername. Only
	// SHA-256 digests are kept, compared in constant time.
	Username string
	Password string `json:"-"`

	// Sources are the addresses webhooks may come from (ProductionSources,
	// SandboxSources, possibly extended). Required unless AllowAnySource.
	Sources []netip.Prefix
	// AllowAnySource turns the source check off (tests, or behind your own
	// gateway that enforces the list). Not with Sources.
	AllowAnySource bool
	// TrustedProxies are your load balancers, whose X-Forwarded-For is
	// read from the right. A prefix wider than /8 (IPv4) or /32 (IPv6),
	// or overlapping Sources, is refused.
	TrustedProxies []netip.Prefix

	// Headers are the custom webhook headers from the dashboard, name to
	// value: each must arrive once with exactly this value.
	Headers map[string]string `json:"-"`

	// MaxBodyBytes bounds the body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// ReadTimeout bounds reading the body, whatever the server's own
	// timeouts; 0 means DefaultReadTimeout.
	ReadTimeout time.Duration

	// Decrypter opens encrypted bodies ({"JWT": "..."}); see the package
	// doc. Once set, plain bodies are refused unless AcceptPlain is set,
	// for the switch-over.
	Decrypter   Decrypter `json:"-"`
	AcceptPlain bool

	// Claims keeps each event's claim while fn runs and remembers the
	// processed ones (see the package doc); nil means a private
	// [claim.Memory]. Share one across replicas (package claim/redisclaim).
	Claims claim.Claimer `json:"-"`
	// DedupTTL is how long a processed event is remembered; 0 means
	// DefaultDedupTTL, at most 10 years. A re-send arriving later is
	// processed again.
	DedupTTL time.Duration
	// DedupLease bounds how long the claim of a replica that died while fn
	// ran blocks the re-sends; it is renewed while fn runs. 0 means
	// DefaultDedupLease, at most 10 years.
	DedupLease time.Duration
	// DuplicateWait bounds how long a duplicate waits for the first
	// delivery still running: 0 means DefaultDuplicateWait, negative means
	// reply 409 at once.
	DuplicateWait time.Duration

	// Logger receives one record per rejected or failed delivery (warn,
	// error) and per processed one (debug), never secrets or bodies. Nil
	// is silent.
	Logger *slog.Logger `json:"-"`
	// Observer hears each delivery's outcome and duration (metrics,
	// tracing), as a client's [checkout.Observer] hears its calls: one
	// observer serves both; nil costs nothing.
	Observer checkout.Observer `json:"-"`

	// Realm is sent in WWW-Authenticate; "" means "webhook".
	Realm string
}

// forbiddenUsernameChars are the characters the dashboard refuses in the
// webhook username, plus ':' which Basic authentication cannot carry.
const forbiddenUsernameChars = "@!#$%&'*+-/=?^_.{|}~`:"

// ValidateUsername reports whether u can be the dashboard's webhook
// username: not empty, none of @ ! # $ % & ' * + - / = ? ^ _ . { | } ~ `
// and ':', no control or space characters. The error is a *validation.ConfigError.
func ValidateUsername(u string) error {
	var v validation.Error
	validateUsername(&v, u)
	return configErr(&v)
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

// Validate checks the Config as NewVerifier does: a *validation.ConfigError listing
// every problem, or nil.
func (c Config) Validate() error {
	var col validation.Error
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
		validateProxy(&col, validation.Index("TrustedProxies", i), p, c.Sources)
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
		if v := c.Headers[name]; v == "" {
			col.Add(path, "value required")
		} else if strings.TrimSpace(v) != v || !httpfield.ValidValue(v) {
			col.Add(path, "value holds characters a header cannot carry")
		}
	}
	if c.MaxBodyBytes < 0 {
		col.Add("MaxBodyBytes", "must not be negative")
	}
	if c.ReadTimeout < 0 {
		col.Add("ReadTimeout", "must not be negative")
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"DedupTTL", c.DedupTTL}, {"DedupLease", c.DedupLease}} {
		switch {
		case d.v < 0:
			col.Add(d.name, "must not be negative")
		case d.v > maxDedup:
			col.Add(d.name, "must be at most 10 years")
		}
	}
	if strings.ContainsAny(c.Realm, "\"\\\r\n") {
		col.Add("Realm", `must not contain quotes, backslashes or line breaks`)
	}
	return configErr(&col)
}

// validateProxy refuses a proxy prefix so wide that a stranger's peer would
// count as a proxy, or one holding a webhook source (a source counted as a
// hop is skipped, so the entries a stranger wrote to its left would decide).
func validateProxy(col *validation.Error, path string, p netip.Prefix, sources []netip.Prefix) {
	np, ok := normalizePrefix(p)
	widest := 32
	if np.Addr().Is4() {
		widest = 8
	}
	switch {
	case !ok:
		col.Add(path, "invalid prefix "+strconv.Quote(p.String()))
	case np.Bits() < widest:
		col.Add(path, fmt.Sprintf("%q is wider than /%d: a stranger's X-Forwarded-For would pass the source check; list your proxies' own addresses", p.String(), widest))
	default:
		for _, s := range sources {
			if ns, ok := normalizePrefix(s); ok && ns.Overlaps(np) {
				col.Add(path, strconv.Quote(p.String())+" overlaps the source "+strconv.Quote(s.String())+": a webhook source cannot be your proxy")
				return
			}
		}
	}
}

const redacted = "[redacted]"

// String describes the Config with the password and header values
// replaced by "[redacted]".
func (c Config) String() string {
	pass := `""`
	if c.Password != "" {
		pass = redacted
	}
	headers := make([]string, 0, len(c.Headers))
	for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
		headers = append(headers, textproto.CanonicalMIMEHeaderKey(k)+": "+redacted)
	}
	return fmt.Sprintf("webhook.Config{Username: %q, Password: %s, Sources: %v, AllowAnySource: %t, TrustedProxies: %v, Headers: {%s}, "+
		"MaxBodyBytes: %d, ReadTimeout: %s, Decrypter: %s, AcceptPlain: %t, Claims: %s, DedupTTL: %s, DedupLease: %s, DuplicateWait: %s, Logger: %s, Observer: %s, Realm: %q}",
		c.Username, pass, c.Sources, c.AllowAnySource, c.TrustedProxies, strings.Join(headers, ", "),
		c.MaxBodyBytes, c.ReadTimeout, setOrNil(c.Decrypter != nil), c.AcceptPlain, setOrNil(c.Claims != nil), c.DedupTTL, c.DedupLease, c.DuplicateWait,
		setOrNil(c.Logger != nil), setOrNil(c.Observer != nil), c.Realm)
}

func setOrNil(set bool) string {
	if set {
		return "set"
	}
	return "nil"
}

// Format makes every fmt verb print String.
func (c Config) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue makes log/slog print String.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }
