package e2e_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/webhook"
)

// decodeRow reads the sample as its kind says and returns the typed value
// (or a view of it) and the error the SDK gave.
func decodeRow(t *testing.T, r sampleRow, s conformance.Sample) (any, error) {
	switch r.kind {
	case kSessionRequest:
		return sessionRoundTrip(t, s.Data)
	case kSDKUDF:
		var got []emi.Visibility
		for frag := range strings.SplitSeq(strings.TrimSpace(string(s.Data)), "\n\n") {
			req, err := sessionFromBody([]byte("{" + frag + "}"))
			require.NoError(t, err, frag)
			require.True(t, req.EMI.Valid(), frag)
			got = append(got, req.EMI)
		}
		require.Equal(t, []emi.Visibility{emi.Show, emi.Hide, emi.ShowWithoutCards}, got)
		return struct{ Values []emi.Visibility }{got}, nil
	case kSession:
		var sess checkout.Session
		if err := json.Unmarshal(s.Data, &sess); err != nil {
			return nil, err
		}
		if p := bytes.TrimSpace(sess.SDKPayload); len(p) == 0 || p[0] != '{' {
			return nil, errors.New("no sdk_payload object") // as CreateSession refuses it
		}
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(s.Data, &m))
		require.Equal(t, string(m["sdk_payload"]), string(sess.SDKPayload), "sdk_payload byte for byte")
		return &sess, nil
	case kSDKPayload:
		var sess checkout.Session
		body := append(append([]byte(`{"status":"NEW","sdk_payload":`), s.Data...), '}')
		return nil, json.Unmarshal(body, &sess)
	case kOrder:
		return decodeInto[checkout.Order](s.Data)
	case kOrderStatus:
		st, err := decodeInto[checkout.OrderStatus](s.Data)
		if err == nil && st.Status.Known() && !st.Status.IsServiceDeclined() {
			require.EqualValues(t, st.Status.ID(), st.StatusID, "the status and its number agree")
		}
		return st, err
	case kRefund:
		return decodeInto[checkout.Refund](s.Data)
	case kAPIError:
		return decodeInto[checkout.APIError](s.Data)
	case kEvent:
		return event(t, r, s.Data)
	case kFilter:
		return filter(t, s.Data, r.negative)
	case kSummary:
		sum, err := productsummary.Parse(string(s.Data))
		if err != nil {
			return nil, err
		}
		out, err := json.Marshal(sum)
		require.NoError(t, err)
		requireSameWire(t, s.Data, out)
		return sum, sum.Validate()
	case kSealed:
		return sealedReply(t, r.call, s.Data)
	case kWebhookJWT:
		return webhookJWT(t, s.Data)
	case kJWS:
		return jwsVectors(t, s.Data), nil
	case kReturnURL:
		line := strings.TrimSpace(string(s.Data))
		line = strings.TrimSuffix(strings.TrimPrefix(line, "HTTP GET "), "'") // a stray quote, as published
		u, err := url.Parse(line)
		require.NoError(t, err)
		q := u.Query()
		_, err = checkout.VerifyReturn(q, "not the merchant's response key")
		return struct{ Query url.Values }{q}, err
	case kSchema:
		return schemaKeys(t, r.file, s.Data), nil
	case kOther:
		require.NotEmpty(t, r.reason)
		var m map[string]any
		err := json.Unmarshal(s.Data, &m)
		return m, err
	}
	t.Fatalf("row %s: unknown kind %d", r.file, r.kind)
	return nil, nil
}

func decodeInto[T any](data []byte) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	return v, nil
}

// filter reads the payment_filter of a sample (or the sample itself when
// it is one), encodes it back and validates it. A negative sample is not
// encoded back (encoding/json drops its misplaced keys): Validate's error,
// else package lint's advice, is its error.
func filter(t *testing.T, data []byte, negative bool) (any, error) {
	var doc struct {
		PaymentFilter json.RawMessage `json:"payment_filter"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.PaymentFilter != nil {
		data = doc.PaymentFilter
	}
	if !negative {
		return roundTrip[paymentfilter.Filter](t, data)
	}
	var f paymentfilter.Filter
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return &f, err
	}
	if advice := lint.Check(&f); len(advice) > 0 {
		return &f, &checkout.ValidationError{Problems: advice}
	}
	return &f, nil
}

// roundTrip decodes a published request body into a T, requires that the
// SDK encodes it back to the same JSON and that this reads back to the same
// T, and returns it with what its Validate says. Only a body the decoder
// refuses is an error without a value.
func roundTrip[T any, P interface {
	*T
	Validate() error
}](t *testing.T, data []byte) (any, error) {
	v := P(new(T))
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	out, err := json.Marshal(v)
	require.NoError(t, err)
	requireSameWire(t, data, out)
	again := P(new(T))
	require.NoError(t, json.Unmarshal(out, again))
	out2, err := json.Marshal(again)
	require.NoError(t, err)
	require.Equal(t, string(out), string(out2), "what the SDK sends reads back to the same value (an empty list read as none)")
	return v, v.Validate()
}

// sessionRoundTrip builds the SDK value a published session body is
// (sessionFromBody), requires that the SDK encodes it back to the same JSON
// and that this builds the same value again, and returns it with what its
// Validate says. Only a body no SDK value can be is an error without a
// value.
func sessionRoundTrip(t *testing.T, data []byte) (any, error) {
	r, err := sessionFromBody(data)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(r)
	require.NoError(t, err)
	requireSameWire(t, data, out)
	again, err := sessionFromBody(out)
	require.NoError(t, err)
	out2, err := json.Marshal(again)
	require.NoError(t, err)
	require.Equal(t, string(out), string(out2), "what the SDK sends builds the same value again")
	return r, r.Validate()
}

// sessionFromBody builds the checkout.SessionRequest that a session body
// is, for the tests that ask the SDK's Validate about a body and compare
// the SDK's encoding with it: the typed fields from their keys (read by
// encoding/json; the amount as written, a number as its text; the UPI flag
// sent as a JSON boolean taken as its text), the mandate keys into Mandate (the older
// mandate_max_amount too), metadata.<GATEWAY>:<key> of another gateway
// than SERVICE into GatewayMetadata, and every other key into Extra,
// numbers as written. The library carries no decoder of its own requests:
// the service reads them, and the fake reads them with its own model.
func sessionFromBody(data []byte) (*checkout.SessionRequest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var members map[string]any
	if err := dec.Decode(&members); err != nil {
		return nil, err
	}
	if members == nil {
		return nil, errors.New("not a JSON object")
	}
	typed := map[string]any{}
	r := &checkout.SessionRequest{}
	mandate := func() *checkout.Mandate {
		if r.Mandate == nil {
			r.Mandate = &checkout.Mandate{}
		}
		return r.Mandate
	}
	var problems []error
	for _, k := range slices.Sorted(maps.Keys(members)) {
		v := members[k]
		gateway, key, isEntry := strings.Cut(strings.TrimPrefix(k, "metadata."), ":")
		switch {
		case k == "amount": // as written: encoding/json would read "1.0" as the reply amount "1.00"
			r.Amount = checkout.Amount(memberText(v, &problems, k))
		case sessionTags()[k]:
			if b, ok := v.(bool); ok && k == "options.get_upi_deep_links" {
				v = strconv.FormatBool(b)
			}
			typed[k] = v
		case k == "options.create_mandate":
			mandate().Option = checkout.MandateOption(memberText(v, &problems, k))
		case k == "mandate.max_amount" || k == "mandate_max_amount" && members["mandate.max_amount"] == nil:
			mandate().MaxAmount = checkout.Amount(memberText(v, &problems, k))
		case k == "mandate.start_date" || k == "mandate.end_date":
			secs, err := strconv.ParseInt(memberText(v, &problems, k), 10, 64)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", k, err))
			}
			if k == "mandate.start_date" {
				mandate().StartDate = time.Unix(secs, 0).UTC()
			} else {
				mandate().EndDate = time.Unix(secs, 0).UTC()
			}
		case strings.HasPrefix(k, "metadata.") && isEntry && gateway != checkout.DefaultNamespace && !strings.Contains(gateway, "."):
			if text, ok := v.(string); ok {
				r.GatewayMetadata = append(r.GatewayMetadata, checkout.GatewayMetadata{Gateway: gateway, Key: key, Value: text})
				continue
			}
			fallthrough
		default:
			if r.Extra == nil {
				r.Extra = map[string]any{}
			}
			r.Extra[k] = v
		}
	}
	body, err := json.Marshal(typed)
	if err != nil {
		return nil, err
	}
	// Its tagged fields, as encoding/json reads them: not through the
	// SDK's own decoder (a plainSession has no methods).
	type plainSession checkout.SessionRequest
	if err := json.Unmarshal(body, (*plainSession)(r)); err != nil {
		return nil, err
	}
	return r, errors.Join(problems...)
}

// sessionTags are the keys the tagged fields of checkout.SessionRequest
// (and its embedded UDFs) carry.
func sessionTags() map[string]bool {
	out := map[string]bool{}
	var add func(reflect.Type)
	add = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case f.Anonymous && f.Type.Kind() == reflect.Struct && name == "":
				add(f.Type)
			case name != "" && name != "-" && f.IsExported():
				out[name] = true
			}
		}
	}
	add(reflect.TypeOf(checkout.SessionRequest{}))
	return out
}

// memberText is v as text: a string, or a number as written; anything else is
// a problem at key.
func memberText(v any, problems *[]error, key string) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	*problems = append(*problems, fmt.Errorf("%s: %v is not text", key, v))
	return ""
}

// eventView is a webhook event with the content its accessors gave.
type eventView struct {
	Event       *webhook.Event
	Order       *checkout.OrderStatus
	Transaction *checkout.Transaction
	Mandate     *checkout.MandateDetail
	Refund      *checkout.Refund
}

func event(t *testing.T, r sampleRow, data []byte) (any, error) {
	ev, err := webhook.ParseEvent(data)
	if err != nil {
		require.ErrorIs(t, err, webhook.ErrMalformedBody)
		return nil, err
	}
	require.NotEmpty(t, r.event, "every published event name has a constant")
	require.Equal(t, r.event, ev.Name)
	require.Equal(t, r.content, ev.Kind(), "where the sample nests its content")
	v := &eventView{Event: ev}
	var errs = map[string]error{}
	v.Order, errs["order"] = ev.Order()
	v.Transaction, errs["txn"] = ev.Transaction()
	v.Mandate, errs["mandate"] = ev.Mandate()
	v.Refund, _ = ev.Refund()
	if r.content == "notification" {
		for _, err := range errs {
			require.ErrorIs(t, err, webhook.ErrNoContent, "a notification has no typed content")
		}
		var n map[string]any
		require.NoError(t, ev.DecodeContent(&n))
		require.Equal(t, "notification", n["object"])
	} else {
		require.NoError(t, errs[r.content], "the content the sample carries is typed")
	}
	if v.Order != nil {
		require.Equal(t, ev.OrderID(), v.Order.OrderID)
		require.Equal(t, ev.Status(), string(v.Order.Status))
	}
	return v, nil
}

// sealedReply serves the sample as the 2xx reply of a call made by a
// client without WithJWE.
func sealedReply(t *testing.T, call string, data []byte) (any, error) {
	var env struct {
		Header, EncryptedKey, IV, EncryptedPayload, Tag, JWT string
	}
	require.NoError(t, json.Unmarshal(data, &env))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(data)
	}))
	defer srv.Close()
	c, err := checkout.NewClient("shop", "key", checkout.WithBaseURL(srv.URL))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch call {
	case "create session":
		_, err = c.CreateSession(ctx, session("ord_sealed", checkout.PaymentPage))
	case "get order":
		_, err = c.GetOrder(ctx, "ord_sealed")
	case "refund":
		_, err = c.Refund(ctx, "ord_sealed", &checkout.RefundRequest{UniqueRequestID: "rf_sealed", Amount: "1.00"})
	default:
		t.Fatalf("unknown call %q", call)
	}
	require.Error(t, err)
	require.Contains(t, err.Error(), "checkout: "+call+":")
	return &env, err
}

// webhookJWT reads an encrypted webhook body: ParseEvent leaves it to the
// Verifier, which without a Decrypter refuses it so the service re-sends.
func webhookJWT(t *testing.T, data []byte) (any, error) {
	_, perr := webhook.ParseEvent(data)
	cfg := webhook.Config{Username: "shop", Password: "pw", AllowAnySource: true}
	v, err := webhook.NewVerifier(cfg)
	require.NoError(t, err)
	_, err = v.Verify(webhook.NewTestRequest(cfg, data))
	require.ErrorIs(t, err, webhook.ErrNoDecrypter)

	var body struct{ JWT string }
	require.NoError(t, json.Unmarshal(data, &body))
	// The token is elided as published; its visible protected header
	// names the algorithms the Decrypter accepts.
	head, _, _ := strings.Cut(body.JWT, " ")
	head = head[:len(head)/4*4]
	plain, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	require.NoError(t, err)
	m := regexp.MustCompile(`"alg":"([^"]+)","enc":"([^"]+)"`).FindStringSubmatch(string(plain))
	require.Len(t, m, 3, "protected header %q", plain)
	return struct{ Alg, Enc string }{m[1], m[2]}, perr
}

// jwsVector is one compact JWS of the published test vectors.
type jwsVector struct{ Alg, Kid, Payload string }

func jwsVectors(t *testing.T, data []byte) any {
	var out []jwsVector
	for line := range strings.SplitSeq(string(data), "\n") {
		parts := strings.Split(strings.TrimSpace(line), ".")
		if len(parts) != 3 || !strings.HasPrefix(parts[0], "eyJ") {
			continue
		}
		h, err := base64.RawURLEncoding.DecodeString(parts[0])
		require.NoError(t, err)
		p, err := base64.RawURLEncoding.DecodeString(parts[1])
		require.NoError(t, err)
		sig, err := base64.RawURLEncoding.DecodeString(parts[2])
		require.NoError(t, err)
		require.Len(t, sig, 256, "an RS256 signature with a 2048-bit key")
		var hdr struct{ Alg, Kid string }
		require.NoError(t, json.Unmarshal(h, &hdr))
		out = append(out, jwsVector{hdr.Alg, hdr.Kid, string(p)})
	}
	return struct{ Vectors []jwsVector }{out}
}

// schemaTypes are the SDK types whose json tags must cover the keys of
// each published schema, and keys the SDK keeps in Extra instead.
var schemaTypes = map[string]struct {
	types []any
	extra []string
}{
	"payment_filter/schema_CardFilter.purescript.txt":           {types: []any{paymentfilter.CardFilter{}}},
	"payment_filter/schema_UPIFilter.purescript.txt":            {types: []any{paymentfilter.UPIFilter{}}},
	"payment_filter/schema_PaymentFilterPayload.purescript.txt": {types: []any{paymentfilter.Filter{}}},
	"payment_filter/schema_PaymentMethodFilter.purescript.txt":  {types: []any{paymentfilter.Option{}}, extra: []string{"display", "displayMessage"}},
	"payment_filter/schema_EmiFilter.purescript.txt":            {types: []any{emi.Options{}}},
	"payment_filter/schema_EmiSubFilter.purescript.txt":         {types: []any{emi.SubFilter{}, emi.Group{}, emi.Filter{}, emi.IssuerFilter{}}},
}

// schemaKeys checks that every key a schema declares is a json key of
// the SDK's types (or one they keep in Extra) and returns the keys.
func schemaKeys(t *testing.T, file string, data []byte) any {
	st, ok := schemaTypes[file]
	require.True(t, ok, "say which types model %s", file)
	tags := map[string]bool{}
	for _, v := range st.types {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" {
				tags[name] = true
			}
		}
	}
	var keys []string
	for _, m := range regexp.MustCompile(`([A-Za-z]+)\s*::?\s`).FindAllStringSubmatch(string(data), -1) {
		k := m[1]
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		require.True(t, tags[k] || slices.Contains(st.extra, k), "schema key %q is no json key of %T", k, st.types[0])
	}
	return struct{ Keys []string }{keys}
}
