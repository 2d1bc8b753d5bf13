package checkouttest_test

import (
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// The receiver often needs the fake's URL before it can start, so the
// webhook is configured after the fake is up: events go to the new URL with
// the new credentials, headers and events.
func TestSetWebhookAfterStart(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, checkouttest.DefaultMaxAttempts, s.Webhook().MaxAttempts, "defaults are filled in")
	require.Empty(t, s.Webhook().URL)

	require.Equal(t, 200, postOrder(t, s, orderForm("ord_before")).status)
	require.NoError(t, s.Pay("ord_before"))
	wait(t, s)
	require.Equal(t, "no webhook URL: set Config.Webhook.URL or the order's metadata.webhook_url", s.Deliveries()[0].Err)

	rc := newReceiver(t, always(200))
	wh := webhookConfig(rc.URL)
	wh.Headers = map[string]string{"X-Shop": "s1"}
	wh.Events = []string{checkouttest.EventOrderSucceeded, checkouttest.EventOrderRefunded}
	require.NoError(t, s.SetWebhook(wh))
	wh.Headers["X-Shop"] = "changed by the caller afterwards"
	got := s.Webhook()
	require.Equal(t, rc.URL, got.URL)
	require.Equal(t, map[string]string{"X-Shop": "s1"}, got.Headers, "the fake keeps its own copy")

	require.Equal(t, 200, postOrder(t, s, orderForm("ord_after")).status)
	require.NoError(t, s.Pay("ord_after"))
	wait(t, s)
	reqs := rc.requests()
	require.Len(t, reqs, 1)
	require.Equal(t, "s1", reqs[0].header.Get("X-Shop"))
	require.Equal(t, basic(wh.Username+":"+wh.Password), reqs[0].header.Get("Authorization"))
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].body, &body))
	require.Equal(t, checkouttest.EventOrderSucceeded, body["event_name"])

	// ORDER_FAILED is no longer enabled: nothing is sent.
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_failed")).status)
	require.NoError(t, s.Fail("ord_failed"))
	wait(t, s)
	require.Len(t, rc.requests(), 1)

	// A bad configuration is refused whole and changes nothing.
	err := s.SetWebhook(checkouttest.WebhookConfig{URL: "http://shop.example/h", Headers: map[string]string{"Authorization": "x"}})
	require.ErrorContains(t, err, "URL")
	require.ErrorContains(t, err, "Headers[Authorization]")
	require.Equal(t, rc.URL, s.Webhook().URL)

	s.Close()
	require.ErrorIs(t, s.SetWebhook(wh), checkouttest.ErrClosed)
	require.ErrorIs(t, s.AddGateway(checkouttest.Gateway{Name: "PAYU", ReferenceID: "late"}), checkouttest.ErrClosed)
}

func TestReturnURLSignedForVerifyReturn(t *testing.T) {
	const responseKey = "resp_key_7Hq"
	s := newServer(t, checkouttest.Config{ResponseKey: responseKey})
	form := orderForm("ord ret/1+ü")
	form.Set("return_url", "https://shop.example/back?cart=c 9&lang=hi")
	require.Equal(t, 200, postOrder(t, s, form).status)

	u, err := s.ReturnURL("ord ret/1+ü")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(u, "https://shop.example/back?"), u)
	require.Contains(t, u, "signature_algorithm=HMAC-SHA256")
	require.Regexp(t, `signature=[^&]*%25`, u, "the signature is escaped twice, as the service sends it")
	parsed, err := url.Parse(u)
	require.NoError(t, err)
	r, err := checkout.VerifyReturn(parsed.Query(), responseKey)
	require.NoError(t, err)
	require.Equal(t, "ord ret/1+ü", r.OrderID)
	require.Equal(t, checkouttest.StatusCreated, r.Status)
	require.EqualValues(t, 1, r.StatusID)
	require.Equal(t, "c 9", r.Params.Get("cart"), "the merchant's own parameters are kept and signed")

	require.NoError(t, s.Pay("ord ret/1+ü"))
	u, err = s.ReturnURL("ord ret/1+ü")
	require.NoError(t, err)
	parsed, _ = url.Parse(u)
	r, err = checkout.VerifyReturn(parsed.Query(), responseKey)
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusCharged, r.Status)
	require.EqualValues(t, 21, r.StatusID)
	_, err = checkout.VerifyReturn(parsed.Query(), "another key")
	require.ErrorIs(t, err, checkout.ErrReturnSignatureMismatch)

	_, err = s.ReturnURL("ord_none")
	require.ErrorIs(t, err, checkouttest.ErrUnknownOrder)
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_noreturn")).status)
	_, err = s.ReturnURL("ord_noreturn")
	require.ErrorIs(t, err, checkouttest.ErrNoReturnURL)

	unkeyed := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, unkeyed, form).status)
	_, err = unkeyed.ReturnURL("ord ret/1+ü")
	require.ErrorIs(t, err, checkouttest.ErrNoReturnURL)
}

func control(t *testing.T, s *checkouttest.Server, method, path string) (int, map[string]any) {
	t.Helper()
	r := send(t, method, s.URL+checkouttest.ControlPrefix+path, http.Header{checkouttest.ControlHeader: {"1"}}, nil)
	require.Equal(t, "application/json", strings.Split(r.header.Get("Content-Type"), ";")[0])
	return r.status, r.json
}

func TestControlEndpoints(t *testing.T) {
	rc := newReceiver(t, func(n int64, _ *http.Request) int {
		if n == 1 {
			return 503 // the first attempt fails: the control reply waits for the re-send
		}
		return 200
	})
	cfg := webhookConfig(rc.URL)
	cfg.RetryInterval = 10 * time.Millisecond
	s := newServer(t, checkouttest.Config{Webhook: cfg, ResponseKey: "rk"})

	status, body := control(t, s, http.MethodGet, "health")
	require.Equal(t, 200, status)
	require.Equal(t, "ok", body["status"])

	form := orderForm("ord/c1")
	form.Set("return_url", "https://shop.example/r")
	require.Equal(t, 200, postOrder(t, s, form).status)
	status, body = control(t, s, http.MethodPost, "orders/ord%2Fc1/pay")
	require.Equal(t, 200, status, body)
	require.Equal(t, "CHARGED", body["status"])
	require.EqualValues(t, 21, body["status_id"])
	ds := body["deliveries"].([]any)
	require.Len(t, ds, 1)
	d := ds[0].(map[string]any)
	require.Equal(t, checkouttest.EventOrderSucceeded, d["event_name"])
	require.Equal(t, true, d["notified"])
	require.EqualValues(t, 2, d["attempts"])
	require.EqualValues(t, 200, d["last_status"])
	ret, err := url.Parse(body["return_url"].(string))
	require.NoError(t, err)
	_, err = checkout.VerifyReturn(ret.Query(), "rk")
	require.NoError(t, err)

	status, body = control(t, s, http.MethodPost, "orders/ord%2Fc1/pay")
	require.Equal(t, 409, status)
	require.Contains(t, body["error"], "invalid transition")
	status, _ = control(t, s, http.MethodPost, "orders/nope/fail")
	require.Equal(t, 404, status)
	status, body = control(t, s, http.MethodPost, "orders/ord%2Fc1/refund")
	require.Equal(t, 409, status, "nothing to refund yet")
	require.Contains(t, body["error"], "no pending refund")
	require.Equal(t, 200, postRefund(t, s, "ord/c1", "rf_1", "5.00").status)
	status, body = control(t, s, http.MethodPost, "orders/ord%2Fc1/refund?unique_request_id=rf_1")
	require.Equal(t, 200, status, body)
	require.Equal(t, checkouttest.EventOrderRefunded, body["deliveries"].([]any)[0].(map[string]any)["event_name"])
	o, err := s.Order("ord/c1")
	require.NoError(t, err)
	require.Equal(t, "SUCCESS", o.Refunds[0].Status)

	status, _ = control(t, s, http.MethodGet, "orders/ord%2Fc1/pay")
	require.Equal(t, 405, status)
	status, _ = control(t, s, http.MethodPost, "orders/ord%2Fc1/explode")
	require.Equal(t, 404, status)
	status, _ = control(t, s, http.MethodPost, "elsewhere")
	require.Equal(t, 404, status)

	for _, r := range s.Requests() {
		require.False(t, strings.HasPrefix(r.Path, checkouttest.ControlPrefix), "control calls are not recorded: %s", r.Path)
	}
}

// The control endpoints send an order's events more than once on purpose:
// duplicates=N on a move delivers each event it sends N more times, and
// resend delivers the order's last event again; every copy is the same
// body, event id included, as a re-send of the service is.
func TestControlResendAndDuplicates(t *testing.T) {
	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_d1")).status)

	status, body := control(t, s, http.MethodPost, "orders/ord_d1/resend")
	require.Equal(t, 409, status, "nothing sent yet")
	require.Contains(t, body["error"], "no webhook event was sent")

	status, body = control(t, s, http.MethodPost, "orders/ord_d1/pay?duplicates=2")
	require.Equal(t, 200, status, body)
	ds := body["deliveries"].([]any)
	require.Len(t, ds, 3, "the event and two duplicates")
	id := ds[0].(map[string]any)["event_id"]
	for _, d := range ds {
		require.Equal(t, id, d.(map[string]any)["event_id"])
		require.Equal(t, true, d.(map[string]any)["notified"])
	}
	reqs := rc.requests()
	require.Len(t, reqs, 3)
	require.Equal(t, reqs[0].body, reqs[1].body)
	require.Equal(t, reqs[0].body, reqs[2].body)

	require.Equal(t, 200, postRefund(t, s, "ord_d1", "rf_d1", "1.00").status)
	status, body = control(t, s, http.MethodPost, "orders/ord_d1/refund?unique_request_id=rf_d1&duplicates=1")
	require.Equal(t, 200, status, body)
	require.Len(t, body["deliveries"].([]any), 2)
	refunded := body["deliveries"].([]any)[0].(map[string]any)["event_id"]

	// resend: the last event (ORDER_REFUNDED), once or times=N.
	status, body = control(t, s, http.MethodPost, "orders/ord_d1/resend")
	require.Equal(t, 200, status, body)
	ds = body["deliveries"].([]any)
	require.Len(t, ds, 1)
	require.Equal(t, refunded, ds[0].(map[string]any)["event_id"])
	require.Equal(t, checkouttest.EventOrderRefunded, ds[0].(map[string]any)["event_name"])
	require.Equal(t, "CHARGED", body["status"], "a resend moves nothing")
	status, body = control(t, s, http.MethodPost, "orders/ord_d1/resend?times=3")
	require.Equal(t, 200, status, body)
	require.Len(t, body["deliveries"].([]any), 3)
	require.Len(t, rc.requests(), 3+2+1+3)

	for path, want := range map[string]int{
		"orders/ord_none/resend":                 404,
		"orders/ord_d1/resend?times=0":           400,
		"orders/ord_d1/resend?times=11":          400,
		"orders/ord_d1/resend?duplicates=1":      400, // resend counts with times
		"orders/ord_d1/pay?times=2":              400,
		"orders/ord_d1/pay?duplicates=x":         400,
		"orders/ord_d1/fail?unique_request_id=r": 400,
	} {
		status, body = control(t, s, http.MethodPost, path)
		require.Equal(t, want, status, "%s: %v", path, body)
	}
	require.Len(t, rc.requests(), 9, "a refused call sends nothing")
}

// A web page the developer visits cannot drive the fake: a control POST
// needs ControlHeader (a custom header: a cross-site page cannot send it
// without a preflight the fake never grants), and whatever a browser marks
// as cross-site is refused, with the header or without.
func TestControlRefusesCrossSite(t *testing.T) {
	rc := newReceiver(t, always(200))
	s := newServer(t, checkouttest.Config{Webhook: webhookConfig(rc.URL)})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_x")).status)
	u := s.URL + checkouttest.ControlPrefix + "orders/ord_x/pay?duplicates=10"
	own := "http://" + strings.TrimPrefix(s.URL, "http://")
	ctl := checkouttest.ControlHeader
	for name, h := range map[string]http.Header{
		"a text/plain form, no header":    {"Content-Type": {"text/plain"}, "Origin": {"https://evil.example"}},
		"no header, no browser":           {},
		"a foreign origin":                {ctl: {"1"}, "Origin": {"https://evil.example"}},
		"a null origin":                   {ctl: {"1"}, "Origin": {"null"}},
		"the same host, another scheme":   {ctl: {"1"}, "Origin": {"https://" + strings.TrimPrefix(s.URL, "http://")}},
		"two origins":                     {ctl: {"1"}, "Origin": {own, "https://evil.example"}},
		"Sec-Fetch-Site cross-site":       {ctl: {"1"}, "Sec-Fetch-Site": {"cross-site"}},
		"Sec-Fetch-Site same-site":        {ctl: {"1"}, "Sec-Fetch-Site": {"same-site"}},
		"cross-site health check as well": {"Sec-Fetch-Site": {"cross-site"}},
	} {
		target := u
		if strings.HasPrefix(name, "cross-site health") {
			target = s.URL + checkouttest.ControlPrefix + "health"
		}
		r := send(t, http.MethodPost, target, h, []byte("x=1"))
		require.Equal(t, 403, r.status, "%s: %s", name, r.body)
		require.Equal(t, "1", r.header.Get(checkouttest.FakeHeader))
	}
	o, err := s.Order("ord_x")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusCreated, o.Status, "nothing moved")
	require.Empty(t, rc.requests())

	for _, h := range []http.Header{{ctl: {"1"}, "Origin": {own}, "Sec-Fetch-Site": {"same-origin"}}, {ctl: {"1"}}} {
		r := send(t, http.MethodPost, s.URL+checkouttest.ControlPrefix+"orders/ord_x/fail", h, nil)
		require.Equal(t, 200, r.status, "%s", r.body)
	}
	r := send(t, http.MethodGet, s.URL+checkouttest.ControlPrefix+"health", nil, nil)
	require.Equal(t, 200, r.status, "a health check needs no header")
}

// DNS rebinding: a name of the attacker's that resolves to 127.0.0.1
// reaches the fake with that name in Host; a fake on loopback serves only
// loopback names, a fake put beyond loopback on purpose any.
func TestHostNamesServed(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_h")).status)
	_, port, err := net.SplitHostPort(strings.TrimPrefix(s.URL, "http://"))
	require.NoError(t, err)
	hostReply := func(host, path string, h http.Header) reply {
		req, err := http.NewRequest(http.MethodGet, s.URL+path, nil)
		require.NoError(t, err)
		req.Host = host
		maps.Copy(req.Header, h)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return reply{status: resp.StatusCode, header: resp.Header, body: body}
	}
	for _, host := range []string{"rebind.evil.example:" + port, "evil.example", "10.0.0.7:" + port, "localhost.evil.example:" + port} {
		for _, path := range []string{"/orders/ord_h", checkouttest.ControlPrefix + "health", "/orders/x/payment-page"} {
			r := hostReply(host, path, authHeaders())
			require.Equal(t, http.StatusMisdirectedRequest, r.status, "%s %s", host, path)
			require.Equal(t, "1", r.header.Get(checkouttest.FakeHeader))
		}
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost", "app.localhost:" + port, "[::1]:" + port} {
		require.Equal(t, 200, hostReply(host, "/orders/ord_h", authHeaders()).status, host)
	}

	l, err := net.Listen("tcp", "0.0.0.0:0")
	require.NoError(t, err)
	wide := newServer(t, checkouttest.Config{Listener: l})
	require.True(t, strings.HasPrefix(wide.URL, "http://127.0.0.1:"), "a URL checkout.WithBaseURL takes: %s", wide.URL)
	_, err = checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(wide.URL))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodGet, wide.URL+checkouttest.ControlPrefix+"health", nil)
	require.NoError(t, err)
	req.Host = "fake.docker.internal"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, "bound beyond loopback on purpose: any name")
}

// POST /__checkouttest/faults injects a fault for programs not written in
// Go (checkout trigger fault): here one that makes the order and answers
// 502 instead of the reply.
func TestControlFaults(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	status, body := control(t, s, http.MethodPost, "faults?method=post&path=/orders&status=502&after=1")
	require.Equal(t, 200, status, body)
	require.Equal(t, map[string]any{"method": "POST", "path": "/orders", "times": 1.0, "fault": "status 502 after processing"}, body)
	require.Equal(t, 502, postOrder(t, s, orderForm("ord_cf")).status)
	_, err := s.Order("ord_cf")
	require.NoError(t, err, "made, its reply lost")
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_cf2")).status, "used up")

	status, body = control(t, s, http.MethodPost, "faults?path=/orders/*&drop=true&times=2&delay=10ms")
	require.Equal(t, 200, status, body)
	require.Equal(t, "delay 10ms, drop", body["fault"])
	require.EqualValues(t, 2, body["times"])

	for q, want := range map[string]string{
		"faults?status=502":                     "is not a path.Match pattern",
		"faults?path=/orders":                   "does nothing",
		"faults?path=/orders&after=1&delay=1s":  "loses no reply after processing",
		"faults?path=/orders&status=5":          "not an HTTP status",
		"faults?path=/orders&drop=yes":          "drop must be 1, true, 0 or false",
		"faults?path=/orders&drop=1&times=0":    "times must be a positive number",
		"faults?path=/orders&drop=1&delay=soon": "delay must be a positive duration",
		"faults?path=/orders&drop=1&order_id=x": `unknown parameter "order_id"`,
		"faults?path=/orders&drop=1&drop=0":     "drop is given more than once",
	} {
		status, body := control(t, s, http.MethodPost, q)
		require.Equal(t, 400, status, q)
		require.Contains(t, body["error"], want, q)
	}
	status, _ = control(t, s, http.MethodGet, "faults?path=/orders&drop=1")
	require.Equal(t, 405, status)
}
