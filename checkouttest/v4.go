package checkouttest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/payorch/checkout-go/internal/jose"
)

// This file serves the JWE+JWS calls of the service: /v4/session,
// /v4/order-status and /v4/orders/{order_id}/refunds. Each request body is
// a JSON body signed by the merchant (JWS RS256) and encrypted to the
// service (JWE RSA-OAEP-256 + A256GCM); each 2xx reply is the service's
// JSON signed by the service and encrypted to the merchant. Inside, the
// calls are the ones of Basic mode: the same checks, the same orders, the
// same replies.

// JWEKeys are the keys of the fake's JWE+JWS mode, what the service's
// dashboard hands a merchant who switches the mode on. Pass them to
// checkout.WithJWE:
//
//	k := fake.JWE()
//	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(fake.URL),
//		checkout.WithJWE(k.KeyID, k.MerchantKey, k.ServiceKey))
type JWEKeys struct {
	// KeyID names the merchant's key pair; both directions carry it.
	KeyID string
	// MerchantKey is the merchant's private key, the one the fake trusts:
	// it verifies requests signed with it and encrypts replies to it.
	MerchantKey *rsa.PrivateKey
	// ServiceKey is the fake service's public key: requests are encrypted
	// to it and replies are signed by its private key, which the fake
	// keeps.
	ServiceKey *rsa.PublicKey
	// MerchantKeyPEM is MerchantKey as a PKCS#8 PEM block ("PRIVATE
	// KEY"), as a merchant keeps it in a file or a secret store.
	MerchantKeyPEM []byte
	// ServiceKeyPEM is ServiceKey as a PKIX PEM block ("PUBLIC KEY"), as
	// the dashboard shows it.
	ServiceKeyPEM []byte
}

// String describes the key id and the key sizes, never the private key.
func (k JWEKeys) String() string {
	m, sv := 0, 0
	if k.MerchantKey != nil && k.MerchantKey.N != nil {
		m = k.MerchantKey.N.BitLen()
	}
	if k.ServiceKey != nil && k.ServiceKey.N != nil {
		sv = k.ServiceKey.N.BitLen()
	}
	return fmt.Sprintf("checkouttest.JWEKeys{KeyID: %q, MerchantKey: RSA-%d [redacted], ServiceKey: RSA-%d}", k.KeyID, m, sv)
}

// Format prints String under every verb.
func (k JWEKeys) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, k.String()) }

// LogValue makes log/slog print String.
func (k JWEKeys) LogValue() slog.Value { return slog.StringValue(k.String()) }

// MarshalJSON writes String as a JSON string, so that encoding/json never
// writes the private key (its PEM or its numbers).
func (k JWEKeys) MarshalJSON() ([]byte, error) { return json.Marshal(k.String()) }

// v4State holds the JWE+JWS keys of one Server, made on first use: RSA key
// generation is slow, and most tests never use the mode.
type v4State struct {
	once     sync.Once
	kid      string
	service  *rsa.PrivateKey // decrypts requests, signs replies
	merchant *rsa.PrivateKey // the merchant's pair: verifies requests, encrypts replies
	pems     [2][]byte       // merchant private PKCS#8, service public PKIX
}

// v4Keys returns the server's keys, making them the first time.
func (s *Server) v4Keys() *v4State {
	v := &s.v4
	v.once.Do(func() {
		v.service, v.merchant = newRSAKey(), newRSAKey()
		id := make([]byte, 16)
		_, _ = rand.Read(id) // never fails (crypto/rand)
		v.kid = "key_" + hex.EncodeToString(id)
		priv, err1 := x509.MarshalPKCS8PrivateKey(v.merchant)
		pub, err2 := x509.MarshalPKIXPublicKey(&v.service.PublicKey)
		if err := errors.Join(err1, err2); err != nil {
			panic("checkouttest: cannot encode a fresh RSA key: " + err.Error())
		}
		v.pems[0] = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: priv})
		v.pems[1] = pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
	})
	return v
}

// newRSAKey makes a 2048-bit key, the size the service's dashboard uses.
func newRSAKey() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil { // crypto/rand does not fail; a 2048-bit size is valid
		panic("checkouttest: cannot make an RSA key: " + err.Error())
	}
	return k
}

// JWE returns the keys of the fake's JWE+JWS mode: the fake serves the
// /v4 calls to a client configured with them (checkout.WithJWE), and
// refuses requests signed or encrypted with any other key. The keys are
// made on the first call (which takes a moment) and stay the same for the
// server's life; every call returns fresh copies of the PEM blocks. A nil
// or zero Server returns zero keys.
func (s *Server) JWE() JWEKeys {
	if !s.started() {
		return JWEKeys{}
	}
	v := s.v4Keys()
	return JWEKeys{
		KeyID:          v.kid,
		MerchantKey:    v.merchant,
		ServiceKey:     &v.service.PublicKey,
		MerchantKeyPEM: append([]byte(nil), v.pems[0]...),
		ServiceKeyPEM:  append([]byte(nil), v.pems[1]...),
	}
}

// serveV4 serves /v4/{rest...}: it checks the merchant id, opens the
// sealed body, runs the Basic-mode handler of the call on the JSON inside
// and seals its 2xx reply. Error replies stay plain JSON, as the service
// writes them. A request that does not open is refused with 401, like a
// wrong API key in Basic mode.
func (s *Server) serveV4(w http.ResponseWriter, r *http.Request, body []byte, rest []string) {
	var handle func(http.ResponseWriter, *http.Request, []byte, string)
	orderID := ""
	switch {
	case len(rest) == 1 && rest[0] == "session":
		handle = s.handleSession
	case len(rest) == 1 && rest[0] == "order-status":
		handle = s.v4OrderStatus
	case len(rest) == 3 && rest[0] == "orders" && rest[1] != "" && rest[2] == "refunds":
		handle, orderID = s.v4Refund, rest[1]
	default:
		writeError(w, http.StatusNotFound, errBody{Status: "error", ErrorCode: "not_found", ErrorMessage: "no such endpoint: " + r.URL.Path})
		return
	}
	// The signature authenticates the call; a Basic header, which some of
	// the service's SDKs add, must still be right when present.
	if len(r.Header.Values("Authorization")) > 0 {
		if !s.authorized(w, r) {
			return
		}
	} else if mids := r.Header.Values("X-Merchantid"); len(mids) != 1 || subtle.ConstantTimeCompare([]byte(mids[0]), []byte(s.merchantID)) != 1 {
		writeUnauthorized(w, "Invalid merchant id. Please pass the x-merchantid header of the merchant whose key signs the request.")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, errBody{Status: "error", ErrorCode: "method_not_allowed", ErrorMessage: r.Method + " is not allowed here; use POST"})
		return
	}
	if mt := mediaType(r); mt != "application/json" {
		p := &problems{}
		p.bad("Content-Type", fmt.Sprintf("must be application/json for the /v4 calls, got %q", r.Header.Get("Content-Type")))
		p.write(w)
		return
	}
	keys := s.v4Keys()
	plain, err := jose.Open(body, keys.service, &keys.merchant.PublicKey, keys.kid)
	if err != nil {
		detail := "the request could not be opened"
		var je *jose.Error
		if errors.As(err, &je) {
			detail += ": " + je.Detail
		}
		writeUnauthorized(w, detail)
		return
	}
	rec := httptest.NewRecorder()
	handle(rec, r, plain, orderID)
	res := rec.Result()
	for k, vs := range res.Header {
		w.Header()[k] = vs
	}
	out := rec.Body.Bytes()
	if res.StatusCode >= 200 && res.StatusCode <= 299 {
		if out, err = jose.Seal(out, keys.service, &keys.merchant.PublicKey, keys.kid); err != nil {
			writeError(w, http.StatusInternalServerError, errBody{Status: "error", ErrorCode: "internal_error", ErrorMessage: "the reply could not be sealed"})
			return
		}
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(res.StatusCode)
	_, _ = w.Write(out)
}

// v4OrderStatus serves /v4/order-status: {"order_id": …} in, the order
// status of GET /orders/{order_id} out. The order id is a key of the body
// here, instead of a segment of the path.
func (s *Server) v4OrderStatus(w http.ResponseWriter, r *http.Request, body []byte, _ string) {
	p := &problems{}
	orderID := ""
	if doc, ok := parseJSON(p, body); ok {
		if o, ok := asObject(p, "", doc); ok {
			orderID, _ = o.text("order_id", true)
			o.done()
		}
	}
	if !p.empty() {
		p.write(w)
		return
	}
	s.handleGetOrder(w, r, nil, orderID)
}

// v4Refund serves /v4/orders/{order_id}/refunds: the refund of the Basic
// call as a JSON object, unique_request_id required and the amount (text
// or a number, more than 0) optional. Other keys are ignored, as the
// service ignores keys it does not read.
func (s *Server) v4Refund(w http.ResponseWriter, _ *http.Request, body []byte, orderID string) {
	p := &problems{}
	req := &refundIn{}
	if doc, ok := parseJSON(p, body); ok {
		if o, ok := asObject(p, "", doc); ok {
			req.uniqueRequestID, _ = o.text("unique_request_id", true)
			if minor, ok := o.amount("amount", false); ok {
				if minor == 0 {
					p.bad("amount", "must be more than 0")
				}
				req.amount = minor
			}
			o.done()
		}
	}
	if !p.empty() {
		p.write(w)
		return
	}
	s.refundOrder(w, orderID, req)
}
