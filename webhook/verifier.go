package webhook

import (
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/netip"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/claim"
)

// Verifier checks webhook requests against a Config and decodes their
// events. Make one with NewVerifier; the zero value refuses everything
// (ErrNotConfigured). It is immutable, safe for concurrent use, and keeps
// only SHA-256 digests of the secrets, which no rendering of it prints.
type Verifier struct {
	ok     bool
	digest *digests // behind a pointer: reflection prints only its address

	anySource bool
	sources   prefixSet
	proxies   prefixSet

	maxBody     int64
	decrypter   Decrypter
	acceptPlain bool // plain JSON passes although decrypter is set
	claims      claim.Claimer
	dedupTTL    time.Duration
	dedupLease  time.Duration
	dupWait     time.Duration // <= 0: a duplicate does not wait
	readTimeout time.Duration
	log         *slog.Logger
	observer    checkout.Observer
	realm       string
}

// digests stay behind a pointer so that fmt's %p of a Verifier value,
// which prints fields by reflection, shows an address, not a digest that
// would let a weak password be guessed offline.
type digests struct {
	user, pass [sha256.Size]byte
	headers    []expectedHeader
}

type expectedHeader struct {
	name string // canonical
	hash [sha256.Size]byte
}

// NewVerifier checks cfg (see Config.Validate; the error is a
// *validation.ConfigError) and returns a Verifier holding copies of what it needs.
func NewVerifier(cfg Config) (*Verifier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	v := &Verifier{
		ok: true,
		digest: &digests{
			user: sha256.Sum256([]byte(cfg.Username)),
			pass: sha256.Sum256([]byte(cfg.Password)),
		},
		anySource:   cfg.AllowAnySource,
		maxBody:     cmp.Or(cfg.MaxBodyBytes, DefaultMaxBodyBytes),
		decrypter:   cfg.Decrypter,
		acceptPlain: cfg.AcceptPlain,
		claims:      cfg.Claims,
		dedupTTL:    cmp.Or(cfg.DedupTTL, DefaultDedupTTL),
		dedupLease:  cmp.Or(cfg.DedupLease, DefaultDedupLease),
		dupWait:     cmp.Or(cfg.DuplicateWait, DefaultDuplicateWait),
		readTimeout: cmp.Or(cfg.ReadTimeout, DefaultReadTimeout),
		log:         cfg.Logger,
		observer:    cfg.Observer,
		realm:       cmp.Or(cfg.Realm, "webhook"),
	}
	for _, p := range cfg.Sources {
		np, _ := normalizePrefix(p) // validated above
		v.sources = append(v.sources, np)
	}
	for _, p := range cfg.TrustedProxies {
		np, _ := normalizePrefix(p)
		v.proxies = append(v.proxies, np)
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Headers)) {
		v.digest.headers = append(v.digest.headers, expectedHeader{
			name: textproto.CanonicalMIMEHeaderKey(name),
			hash: sha256.Sum256([]byte(cfg.Headers[name])),
		})
	}
	if v.claims == nil {
		v.claims = claim.NewMemory(claim.MemoryConfig{})
	}
	return v, nil
}

// Verify checks r and returns its event: the source address, the method
// (POST), the Basic credentials, the custom headers, the body size and the
// body, in that order; the first failure is returned wrapped around its
// sentinel (ErrForbiddenSource, ErrMethodNotAllowed, ErrBadCredentials,
// ErrHeaderMismatch, ErrBodyTooLarge, ErrMalformedBody, the encrypted ones,
// ErrNotEncrypted). It reads and closes r.Body and does not deduplicate
// (Handler does). A nil Verifier or request never panics.
func (v *Verifier) Verify(r *http.Request) (*Event, error) {
	ev, _, err := v.verify(r)
	return ev, err
}

// verify also returns the client address, for logs.
func (v *Verifier) verify(r *http.Request) (*Event, netip.Addr, error) {
	if v == nil || !v.ok {
		return nil, netip.Addr{}, ErrNotConfigured
	}
	if r == nil {
		return nil, netip.Addr{}, wrap(ErrMalformedBody, "nil request")
	}
	client, err := clientAddr(r, v.proxies)
	if err != nil {
		return nil, client, err
	}
	if !v.anySource && !v.sources.contains(client) {
		return nil, client, wrap(ErrForbiddenSource, client.String())
	}
	if r.Method != http.MethodPost {
		return nil, client, wrap(ErrMethodNotAllowed, fmt.Sprintf("%.32q", r.Method))
	}
	if err := v.checkCredentials(r.Header); err != nil {
		return nil, client, err
	}
	if err := v.checkHeaders(r.Header); err != nil {
		return nil, client, err
	}
	body, err := v.readBody(r)
	if err != nil {
		return nil, client, err
	}
	ev, err := v.decode(body)
	return ev, client, err
}

func (v *Verifier) checkCredentials(h http.Header) error {
	values := h.Values("Authorization")
	user, pass, ok := "", "", false
	detail := "missing Authorization header"
	switch len(values) {
	case 0:
	case 1:
		if user, pass, ok = parseBasic(values[0]); !ok {
			detail = "malformed Basic Authorization header"
		}
	default:
		detail = "more than one Authorization header"
	}
	// Compare digests, so that neither the length nor the content of the
	// configured values shows in the timing, and compare both parts even
	// when the first differs.
	uh := sha256.Sum256([]byte(user))
	ph := sha256.Sum256([]byte(pass))
	match := subtle.ConstantTimeCompare(uh[:], v.digest.user[:]) & subtle.ConstantTimeCompare(ph[:], v.digest.pass[:])
	if !ok {
		return wrap(ErrBadCredentials, detail)
	}
	if match != 1 {
		return wrap(ErrBadCredentials, "credentials do not match")
	}
	return nil
}

func (v *Verifier) checkHeaders(h http.Header) error {
	for _, want := range v.digest.headers {
		values := h[want.name]
		if len(values) != 1 {
			if len(values) == 0 {
				return wrap(ErrHeaderMismatch, want.name+" is missing")
			}
			return wrap(ErrHeaderMismatch, want.name+" is repeated")
		}
		got := sha256.Sum256([]byte(values[0]))
		if subtle.ConstantTimeCompare(got[:], want.hash[:]) != 1 {
			return wrap(ErrHeaderMismatch, want.name+" has another value")
		}
	}
	return nil
}

func (v *Verifier) readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, wrap(ErrMalformedBody, "empty body")
	}
	defer r.Body.Close()
	if r.ContentLength > v.maxBody {
		return nil, wrap(ErrBodyTooLarge, "Content-Length "+strconv.FormatInt(r.ContentLength, 10)+" exceeds "+strconv.FormatInt(v.maxBody, 10))
	}
	size := int64(512)
	if r.ContentLength > 0 {
		size = r.ContentLength + 1 // +1: room for the read that sees EOF
	}
	buf := make([]byte, 0, size)
	lr := io.LimitReader(r.Body, v.maxBody+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, wrap(ErrMalformedBody, "reading the body failed")
		}
	}
	if int64(len(buf)) > v.maxBody {
		return nil, wrap(ErrBodyTooLarge, "body exceeds "+strconv.FormatInt(v.maxBody, 10)+" bytes")
	}
	if len(buf) == 0 {
		return nil, wrap(ErrMalformedBody, "empty body")
	}
	return buf, nil
}

// decode parses a plain body, or opens an encrypted one and parses its
// payload.
func (v *Verifier) decode(body []byte) (*Event, error) {
	var w wireBody
	if err := decodeObject(body, &w); err != nil {
		return nil, err
	}
	token, encrypted, err := envelopeToken(&w)
	if err != nil {
		return nil, err
	}
	if !encrypted {
		if v.decrypter != nil && !v.acceptPlain {
			// A downgrade: plain JSON would skip the decryption and the
			// signature the Decrypter checks.
			return nil, ErrNotEncrypted
		}
		return eventFrom(&w, body)
	}
	if v.decrypter == nil {
		return nil, ErrNoDecrypter
	}
	plain, err := v.decrypter.Decrypt(token)
	if err != nil {
		if !errors.Is(err, ErrEncrypted) { // a Decrypter of the merchant's own
			kind := error(checkout.ErrDecrypt)
			for _, k := range []error{checkout.ErrSignature, checkout.ErrKeyOperation} {
				if errors.Is(err, k) {
					kind = k
				}
			}
			err = &openError{kind: kind, detail: err.Error(), err: err}
		}
		return nil, err
	}
	if int64(len(plain)) > v.maxBody {
		// A compressed token can expand; the limit holds for what we parse.
		return nil, wrap(ErrBodyTooLarge, "decrypted payload exceeds "+strconv.FormatInt(v.maxBody, 10)+" bytes")
	}
	var inner wireBody
	if err := decodeObject(plain, &inner); err != nil {
		return nil, inPayload(err)
	}
	if inner.JWT != nil {
		return nil, wrap(ErrMalformedBody, "decrypted payload is another envelope")
	}
	ev, err := eventFrom(&inner, plain)
	if err != nil {
		return nil, inPayload(err)
	}
	ev.Encrypted = true
	return ev, nil
}

// inPayload marks an error about the decrypted payload, keeping the
// sentinel first in its message and in its chain.
func inPayload(err error) error {
	return fmt.Errorf("%w (in the decrypted payload)", err)
}

// envelopeToken recognises the encrypted envelopes: {"JWT": "<compact
// JWE>"}, and the JSON-serialised JWE of the service's encrypted API
// replies, rebuilt in compact form. An envelope mixed with event keys is
// malformed.
func envelopeToken(w *wireBody) (token string, encrypted bool, err error) {
	switch {
	case w.JWT != nil:
		if w.isEvent() {
			return "", false, wrap(ErrMalformedBody, "JWT envelope mixed with event fields")
		}
		var s string
		if json.Unmarshal(w.JWT, &s) != nil || strings.TrimSpace(s) == "" {
			return "", false, wrap(ErrMalformedBody, "JWT is not a non-empty string")
		}
		return s, true, nil
	case w.EncryptedPayload != nil && !w.isEvent():
		parts := make([]string, 5)
		for i, raw := range []json.RawMessage{w.Header, w.EncryptedKey, w.IV, w.EncryptedPayload, w.Tag} {
			if json.Unmarshal(raw, &parts[i]) != nil || strings.Contains(parts[i], ".") {
				return "", false, wrap(ErrMalformedBody, "incomplete JWE envelope")
			}
		}
		return strings.Join(parts, "."), true, nil
	}
	return "", false, nil
}

// String describes the Verifier without secrets.
func (v *Verifier) String() string {
	if v == nil || !v.ok {
		return "webhook.Verifier(not configured)"
	}
	names := make([]string, len(v.digest.headers))
	for i, h := range v.digest.headers {
		names[i] = h.name
	}
	src := strconv.Itoa(len(v.sources)) + " prefixes"
	if v.anySource {
		src = "any"
	}
	return fmt.Sprintf("webhook.Verifier{Credentials: %s, Sources: %s, TrustedProxies: %d prefixes, Headers: %v, MaxBodyBytes: %d, Decrypter: %s, AcceptPlain: %t}",
		redacted, src, len(v.proxies), names, v.maxBody, setOrNil(v.decrypter != nil), v.acceptPlain)
}

// Format makes every fmt verb print String, for a value as for a pointer.
func (v Verifier) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, v.String()) }

// LogValue makes log/slog print String.
func (v *Verifier) LogValue() slog.Value { return slog.StringValue(v.String()) }
