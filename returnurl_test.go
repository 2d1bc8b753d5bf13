package checkout_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/internal/conformance"
)

// Vectors computed outside Go, with Python 3's urllib.parse.quote_plus,
// hmac and base64, following the service's published verification recipe:
//
//	s = '&'.join(quote_plus(k) + '=' + quote_plus(p[k]) for k in sorted(p))
//	sig = b64encode(hmac.new(key, quote_plus(s), sha256).digest())
//
// and put into the URL escaped twice, quote_plus(quote_plus(sig)), as the
// service's published redirect shows ("…%253D").
func TestVerifyReturnPythonVectors(t *testing.T) {
	for _, tc := range []struct {
		name, key, rawQuery string
		orderID, status     string
		statusID            int
	}{
		{
			name: "published shape", key: "resp_key_1",
			rawQuery: "order_id=order_id_007&status=CHARGED&status_id=21&signature=kkz3YOHBXrM20YU9ZPrseIJrCSVdTU3Vbu9abRnkFA8%253D&signature_algorithm=HMAC-SHA256",
			orderID:  "order_id_007", status: "CHARGED", statusID: 21,
		},
		{
			name: "signature holding + and /", key: "resp_key_23",
			rawQuery: "order_id=order_id_007&status=CHARGED&status_id=21&signature=VZd%252F6xQQmvBsJSpq6CM0VgtlN40Gn%252BuuleaaoEzXu4I%253D&signature_algorithm=HMAC-SHA256",
			orderID:  "order_id_007", status: "CHARGED", statusID: 21,
		},
		{
			name: "values needing escapes and a key with non-ASCII", key: "k€y with space",
			rawQuery: "order_id=ord+1%2F2%2B3&status=AUTHORIZATION_FAILED&status_id=27&note=caf%C3%A9+%E2%82%B9+100%25&a~b=x*y" +
				"&signature=SgXEHXt8iALvRYnq9UojV9LU4sWk0cVaawuPLoMdovg%253D&signature_algorithm=HMAC-SHA256",
			orderID: "ord 1/2+3", status: "AUTHORIZATION_FAILED", statusID: 27,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.rawQuery)
			require.NoError(t, err)
			r, err := checkout.VerifyReturn(q, tc.key)
			require.NoError(t, err)
			require.Equal(t, tc.orderID, r.OrderID)
			require.Equal(t, tc.status, r.Status)
			require.Equal(t, tc.statusID, r.StatusID)
			require.NotContains(t, r.Params, "signature")
			require.NotContains(t, r.Params, "signature_algorithm")

			_, err = checkout.VerifyReturn(q, tc.key+"x")
			require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch)
		})
	}
}

// hmacSHA256 is RFC 2104 written out over crypto/sha256, a code path of its
// own beside crypto/hmac, which VerifyReturn uses.
func hmacSHA256(key, msg []byte) []byte {
	const block = 64
	if len(key) > block {
		s := sha256.Sum256(key)
		key = s[:]
	}
	k := make([]byte, block)
	copy(k, key)
	inner, outer := make([]byte, block), make([]byte, block)
	for i := range k {
		inner[i], outer[i] = k[i]^0x36, k[i]^0x5c
	}
	in := sha256.Sum256(append(inner, msg...))
	out := sha256.Sum256(append(outer, in[:]...))
	return out[:]
}

// formEscape is application/x-www-form-urlencoded escaping written out byte
// by byte (letters, digits and -_.~ kept, space as +, the rest %XX), a code
// path of its own beside url.QueryEscape.
func formEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// signedRedirect builds the raw query of a signed redirect by hand: params
// in the given order, then the signature escaped twice.
func signedRedirect(params [][2]string, key string) (rawQuery, sig string) {
	sorted := append([][2]string(nil), params...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i][0] < sorted[j][0] })
	var msg []string
	for _, p := range sorted {
		msg = append(msg, formEscape(p[0])+"="+formEscape(p[1]))
	}
	sig = base64.StdEncoding.EncodeToString(hmacSHA256([]byte(key), []byte(formEscape(strings.Join(msg, "&")))))
	var q []string
	for _, p := range params {
		q = append(q, formEscape(p[0])+"="+formEscape(p[1]))
	}
	q = append(q, "signature="+formEscape(formEscape(sig)), "signature_algorithm=HMAC-SHA256")
	return strings.Join(q, "&"), sig
}

func TestVerifyReturnIndependentVectors(t *testing.T) {
	for i, params := range [][][2]string{
		{{"order_id", "ord_1"}, {"status", "CHARGED"}, {"status_id", "21"}},
		{{"status_id", "21"}, {"order_id", "a b/c+d"}, {"status", "CHARGED"}},
		{{"order_id", "заказ-№7 ✓"}, {"status", "PENDING_VBV"}, {"status_id", "23"}},
		{{"order_id", "x&y=z?%"}, {"status", "CHARGED"}, {"status_id", "21"}, {"ref", ""}, {"next", "/cart?step=2&a=b"}},
		{{"order_id", "o"}, {"status", "NEW_UNKNOWN_STATUS"}, {"status_id", "not-a-number"}},
	} {
		for _, key := range []string{"k", "a response key with spaces / + and ünïcödé", strings.Repeat("long", 40)} {
			t.Run(fmt.Sprint(i, "/", len(key)), func(t *testing.T) {
				raw, sig := signedRedirect(params, key)
				q, err := url.ParseQuery(raw)
				require.NoError(t, err)
				r, err := checkout.VerifyReturn(q, key)
				require.NoError(t, err, raw)
				want := map[string]string{}
				for _, p := range params {
					want[p[0]] = p[1]
					require.Equal(t, p[1], r.Params.Get(p[0]))
				}
				require.Len(t, r.Params, len(params))
				require.Equal(t, want["order_id"], r.OrderID)
				require.Equal(t, want["status"], r.Status)
				if want["status_id"] == "not-a-number" {
					require.Zero(t, r.StatusID)
				}

				// The signature as a framework may hand it over: unescaped
				// once more, or with its "+" read as spaces.
				for _, s := range []string{sig, strings.ReplaceAll(sig, "+", " ")} {
					q2 := cloneValues(q)
					q2.Set("signature", s)
					_, err := checkout.VerifyReturn(q2, key)
					require.NoError(t, err, s)
				}

				// Any change to a signed value, or an added parameter, is refused.
				for k := range q {
					if k == "signature" || k == "signature_algorithm" {
						continue
					}
					q2 := cloneValues(q)
					q2.Set(k, q.Get(k)+"1")
					_, err := checkout.VerifyReturn(q2, key)
					require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch, k)
				}
				q2 := cloneValues(q)
				q2.Set("amount", "1.00")
				_, err = checkout.VerifyReturn(q2, key)
				require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch)
			})
		}
	}
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

func TestVerifyReturnRefusals(t *testing.T) {
	const key = "resp_secret_Zq81"
	raw, _ := signedRedirect([][2]string{{"order_id", "ord_9"}, {"status", "AUTHORIZATION_FAILED"}, {"status_id", "27"}}, key)
	good, err := url.ParseQuery(raw)
	require.NoError(t, err)
	_, err = checkout.VerifyReturn(good, key)
	require.NoError(t, err)

	edit := func(f func(q url.Values)) url.Values { q := cloneValues(good); f(q); return q }
	for _, tc := range []struct {
		name  string
		query url.Values
		key   string
		is    error // nil: an error that is none of the sentinels
	}{
		{"no signature", edit(func(q url.Values) { q.Del("signature") }), key, checkout.ErrReturnSignatureMissing},
		{"empty signature", edit(func(q url.Values) { q.Set("signature", "") }), key, checkout.ErrReturnSignatureMissing},
		{"no algorithm", edit(func(q url.Values) { q.Del("signature_algorithm") }), key, checkout.ErrReturnAlgorithmUnknown},
		{"other algorithm", edit(func(q url.Values) { q.Set("signature_algorithm", "HMAC-SHA1") }), key, checkout.ErrReturnAlgorithmUnknown},
		{"two algorithms", edit(func(q url.Values) { q.Add("signature_algorithm", "MD5") }), key, checkout.ErrReturnAlgorithmUnknown},
		{"status changed", edit(func(q url.Values) { q.Set("status", "CHARGED"); q.Set("status_id", "21") }), key, checkout.ErrReturnSignatureMismatch},
		{"status given twice", edit(func(q url.Values) { q.Add("status", "CHARGED") }), key, checkout.ErrReturnSignatureMismatch},
		{"parameter removed", edit(func(q url.Values) { q.Del("status_id") }), key, checkout.ErrReturnSignatureMismatch},
		{"two signatures", edit(func(q url.Values) { q.Add("signature", q.Get("signature")) }), key, checkout.ErrReturnSignatureMismatch},
		{"not base64", edit(func(q url.Values) { q.Set("signature", "!!!") }), key, checkout.ErrReturnSignatureMismatch},
		{"wrong key", good, key + "2", checkout.ErrReturnSignatureMismatch},
		{"empty key", good, "", nil},
		{"nil query", nil, key, checkout.ErrReturnSignatureMissing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := checkout.VerifyReturn(tc.query, tc.key)
			require.Error(t, err)
			require.Zero(t, r)
			require.True(t, strings.HasPrefix(err.Error(), "checkout: verify return: "), err.Error())
			require.NotContains(t, err.Error(), key)
			for _, s := range []error{checkout.ErrReturnSignatureMissing, checkout.ErrReturnAlgorithmUnknown, checkout.ErrReturnSignatureMismatch} {
				require.Equal(t, s == tc.is, errors.Is(err, s), "%v is %v", err, s)
			}
		})
	}
}

// The service's published redirect: the secret is not published, so its
// signature cannot be checked, but it must read as a signed redirect whose
// signature (escaped twice) simply does not match another key.
func TestVerifyReturnPublishedExample(t *testing.T) {
	s := conformance.Files(t, "orders", "return_url_redirect_example.txt")[0]
	line := strings.TrimSpace(string(s.Data))
	line = strings.TrimSuffix(strings.TrimPrefix(line, "HTTP GET "), "'") // a stray quote, as published
	u, err := url.Parse(line)
	require.NoError(t, err)
	q := u.Query()
	require.Equal(t, "euKzwwiUztPPg3MCEYpgKZfcyTr1uQq1hzKkhP8G1vQ%3D", q.Get("signature"), "escaped once more than the rest")
	_, err = checkout.VerifyReturn(q, "not the merchant's key")
	require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch)

	// With a key of ours, the same redirect re-signed is accepted.
	raw, _ := signedRedirect([][2]string{{"order_id", q.Get("order_id")}, {"status", q.Get("status")}, {"status_id", q.Get("status_id")}}, "our key")
	q2, err := url.ParseQuery(raw)
	require.NoError(t, err)
	r, err := checkout.VerifyReturn(q2, "our key")
	require.NoError(t, err)
	require.Equal(t, checkout.ReturnRedirect{OrderID: "order_id_007", Status: "CHARGED", StatusID: 21,
		Params: url.Values{"order_id": {"order_id_007"}, "status": {"CHARGED"}, "status_id": {"21"}}}, r)
}

// The shop's return handler: the redirect tells it which order the customer
// comes back from; the order status from the service decides what happens.
func ExampleVerifyReturn() {
	const responseKey = "resp_key_from_dashboard"
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key", ResponseKey: responseKey})
	defer fake.Close()
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}

	returnHandler := func(w http.ResponseWriter, r *http.Request) {
		ret, err := checkout.VerifyReturn(r.URL.Query(), responseKey)
		if err != nil {
			http.Error(w, "this link is not valid", http.StatusBadRequest)
			return
		}
		st, err := client.GetOrder(r.Context(), ret.OrderID) // fulfil on this, never on the redirect alone
		if err != nil {
			http.Error(w, "please refresh in a moment", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "order %s: %s", st.OrderID, st.Status)
	}
	shop := httptest.NewServer(http.HandlerFunc(returnHandler))
	defer shop.Close()

	// The customer pays and the payment page sends the browser back.
	_, err = client.CreateOrder(context.Background(), &checkout.OrderRequest{
		OrderID: "ord_77", Amount: "499.00", ReturnURL: shop.URL + "/payment/return"})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = fake.Pay("ord_77")
	redirect, _ := fake.ReturnURL("ord_77")
	for _, u := range []string{redirect, strings.Replace(redirect, "status=CHARGED", "status=AUTHORIZATION_FAILED", 1)} {
		resp, err := http.Get(u)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, strings.TrimSpace(string(body)))
	}
	// Output:
	// 200 order ord_77: CHARGED
	// 400 this link is not valid
}

// The signature's base64 is read strictly: a non-canonical spelling of the
// same bytes (non-zero trailing bits) or one with CR or LF inside is not
// the signature the service wrote, and is refused.
func TestVerifyReturnBase64IsStrict(t *testing.T) {
	const key = "resp_secret_Zq81"
	params := [][2]string{{"order_id", "ord_9"}, {"status", "CHARGED"}, {"status_id", "21"}}
	raw, sig := signedRedirect(params, key)
	good, err := url.ParseQuery(raw)
	require.NoError(t, err)
	_, err = checkout.VerifyReturn(good, key)
	require.NoError(t, err)

	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	require.Len(t, sig, 44, "32 bytes, one '=' of padding: the last letter carries 2 unused bits")
	last := strings.IndexByte(alphabet, sig[42])
	require.Zero(t, last&3, "the service's own spelling leaves them zero")
	nonCanonical := sig[:42] + string(alphabet[last|1]) + sig[43:]
	b1, err1 := base64.StdEncoding.DecodeString(nonCanonical)
	b2, _ := base64.StdEncoding.DecodeString(sig)
	require.NoError(t, err1)
	require.Equal(t, b2, b1, "a lenient decoder reads both spellings as the same bytes")

	for name, s := range map[string]string{
		"non-canonical trailing bits": nonCanonical,
		"LF inside":                   sig[:10] + "\n" + sig[10:],
		"CR LF inside":                sig[:20] + "\r\n" + sig[20:],
	} {
		q := cloneValues(good)
		q.Set("signature", url.QueryEscape(s))
		_, err := checkout.VerifyReturn(q, key)
		require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch, name)
		q.Set("signature", s) // already unescaped by a framework
		_, err = checkout.VerifyReturn(q, key)
		require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch, name)
	}
}

// VerifyReturn never panics and accepts only what the key signed: any query
// it accepts keeps its signature valid for the key.
func FuzzVerifyReturn(f *testing.F) {
	const key = "resp_secret_Zq81"
	raw, _ := signedRedirect([][2]string{{"order_id", "ord_9"}, {"status", "CHARGED"}, {"status_id", "21"}}, key)
	f.Add(raw)
	f.Add("order_id=o&signature=%252B%253D&signature_algorithm=HMAC-SHA256")
	f.Add("signature=&signature_algorithm=hmac-sha256&status_id=x")
	f.Add(raw + "&order_id=other")
	f.Fuzz(func(t *testing.T, rawQuery string) {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return
		}
		r, err := checkout.VerifyReturn(q, key)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "checkout: verify return: "), err.Error())
			return
		}
		// Accepted: the parameters are exactly the query's, each once, and
		// the signature is the one the key gives them.
		for k, v := range r.Params {
			require.Len(t, v, 1, k)
			require.Equal(t, q[k], v, k)
		}
		pairs := make([][2]string, 0, len(r.Params))
		for k, v := range r.Params {
			pairs = append(pairs, [2]string{k, v[0]})
		}
		_, want := signedRedirect(pairs, key)
		got := q.Get("signature")
		if u, err := url.QueryUnescape(got); err == nil && u != got && strings.HasSuffix(u, "=") {
			got = u
		}
		require.Equal(t, want, strings.ReplaceAll(got, " ", "+"), "accepted only the key's signature")
	})
}

// SignReturn builds the redirect the service would send; VerifyReturn
// accepts it, an independent signature agrees, and any change is refused.
func TestSignReturn(t *testing.T) {
	const key = "resp_secret_Zq81"
	params := url.Values{"order_id": {"ord 1/ü"}, "status": {"CHARGED"}, "status_id": {"21"}, "cart": {"42"}}
	raw := checkout.SignReturn(params, key)
	q, err := url.ParseQuery(raw)
	require.NoError(t, err)
	r, err := checkout.VerifyReturn(q, key)
	require.NoError(t, err)
	require.Equal(t, "ord 1/ü", r.OrderID)
	require.Equal(t, 21, r.StatusID)
	require.Equal(t, "42", r.Params.Get("cart"))
	_, sig := signedRedirect([][2]string{{"order_id", "ord 1/ü"}, {"status", "CHARGED"}, {"status_id", "21"}, {"cart", "42"}}, key)
	require.Equal(t, url.QueryEscape(sig), q.Get("signature"), "the signature, escaped once more, as the service sends it")
	require.Equal(t, checkout.ReturnAlgorithm, q.Get("signature_algorithm"))
	require.Equal(t, "ord 1/ü", params.Get("order_id"), "params is not changed")
	require.NotContains(t, params, "signature")
	q.Set("status", "FAILED")
	_, err = checkout.VerifyReturn(q, key)
	require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch)

	// A parameter given twice is sent, and signed, with its first value.
	twice := url.Values{"order_id": {"ord_2"}, "status": {"CHARGED", "FAILED"}, "status_id": {"21"}}
	q, err = url.ParseQuery(checkout.SignReturn(twice, key))
	require.NoError(t, err)
	require.Equal(t, []string{"CHARGED"}, q["status"])
	r, err = checkout.VerifyReturn(q, key)
	require.NoError(t, err)
	require.Equal(t, "CHARGED", r.Status)
}

// A test of a return handler builds the redirect with SignReturn.
func ExampleSignReturn() {
	const responseKey = "resp_secret_Zq81"
	q := checkout.SignReturn(url.Values{"order_id": {"ord_1"}, "status": {"CHARGED"}, "status_id": {"21"}}, responseKey)
	req := httptest.NewRequest(http.MethodGet, "/return?"+q, nil)

	r, err := checkout.VerifyReturn(req.URL.Query(), responseKey)
	fmt.Println(r.OrderID, r.Status, err)
	// Output: ord_1 CHARGED <nil>
}
