package checkouttest_test

import (
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
)

// hostReply sends a request to s's own address with Host set to host, as
// a browser on a name that resolves to the fake would.
func hostReply(t *testing.T, s *checkouttest.Server, method, host, path string, h http.Header) reply {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, nil)
	require.NoError(t, err)
	req.Host = host
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: body}
}

func portOf(t *testing.T, s *checkouttest.Server) string {
	t.Helper()
	_, port, err := net.SplitHostPort(strings.TrimPrefix(s.URL, "http://"))
	require.NoError(t, err)
	return port
}

// requireRebindingRefused checks that hosts reach neither the API, the
// payment page nor a control endpoint (the order stays unpaid).
func requireRebindingRefused(t *testing.T, s *checkouttest.Server, orderID string, hosts ...string) {
	t.Helper()
	control := http.Header{checkouttest.ControlHeader: {"1"}}
	for _, host := range hosts {
		for _, path := range []string{"/orders/" + orderID, checkouttest.ControlPrefix + "health", "/orders/" + orderID + "/payment-page"} {
			r := hostReply(t, s, http.MethodGet, host, path, authHeaders())
			require.Equal(t, http.StatusMisdirectedRequest, r.status, "%s %s", host, path)
			require.Equal(t, "1", r.header.Get(checkouttest.FakeHeader))
			require.Contains(t, string(r.body), "Config.Hosts")
		}
		r := hostReply(t, s, http.MethodPost, host, checkouttest.ControlPrefix+"orders/"+orderID+"/pay", control)
		require.Equal(t, http.StatusMisdirectedRequest, r.status, host)
		o, err := s.Order(orderID)
		require.NoError(t, err)
		require.Equal(t, checkouttest.StatusCreated, o.Status, "%s paid nothing", host)
	}
}

// DNS rebinding on loopback: a name of the attacker's that resolves to
// 127.0.0.1 reaches the fake with that name in Host, and is refused; so is
// a loopback address followed by something that is not a port.
func TestHostOnLoopback(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_h")).status)
	port := portOf(t, s)
	requireRebindingRefused(t, s, "ord_h",
		"rebind.evil.example:"+port, "evil.example", "10.0.0.7:"+port, "localhost.evil.example:"+port,
		"[::ffff:7f00:1]:"+port+".evil.example", "127.0.0.1:"+port+".evil.example", "localhost:"+port+".evil.example",
		"127.0.0.1:99999", "127.0.0.1:-80", "[localhost]:"+port, "127.1:"+port)
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost", "app.localhost:" + port,
		"[::1]:" + port, "[::ffff:7f00:1]:" + port, "[::ffff:127.0.0.1]", "localhost.:" + port, "127.0.0.1:", "127.0.0.2"} {
		require.Equal(t, 200, hostReply(t, s, http.MethodGet, host, "/orders/ord_h", authHeaders()).status, host)
	}
}

// Beyond loopback the Host check stays: the fake serves loopback names,
// the addresses it listens on and the names it was given (Config.Hosts,
// checkout fake --host), and refuses a rebound name.
func TestHostBeyondLoopback(t *testing.T) {
	l, err := net.Listen("tcp", "0.0.0.0:0")
	require.NoError(t, err)
	s := newServer(t, checkouttest.Config{Listener: l, Hosts: []string{"fake.test", "203.0.113.10", "[2001:db8::10]"}})
	require.True(t, strings.HasPrefix(s.URL, "http://127.0.0.1:"), "a URL checkout.WithBaseURL takes: %s", s.URL)
	_, err = checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_w")).status)
	port := portOf(t, s)

	requireRebindingRefused(t, s, "ord_w", "rebind.evil.example:"+port, "fake.docker.internal", "fake.test.evil.example:"+port,
		"[::ffff:7f00:1]:"+port+".evil.example", "fake.test:"+port+".evil.example", "203.0.113.11:"+port)
	served := []string{"fake.test:" + port, "FAKE.TEST", "fake.test.", "203.0.113.10:" + port, "[2001:db8::10]:" + port,
		"127.0.0.1:" + port, "localhost:" + port}
	if own := nonLoopbackAddr(t); own.IsValid() {
		served = append(served, net.JoinHostPort(own.String(), port))
	}
	for _, host := range served {
		require.Equal(t, 200, hostReply(t, s, http.MethodGet, host, "/orders/ord_w", authHeaders()).status, host)
	}
}

// A fake bound to one address beyond loopback serves that address, and
// refuses a rebound name as the others do.
func TestHostOnOneAddress(t *testing.T) {
	own := nonLoopbackAddr(t)
	if !own.IsValid() {
		t.Skip("this machine has no address beyond loopback")
	}
	l, err := net.Listen("tcp", net.JoinHostPort(own.String(), "0"))
	require.NoError(t, err)
	s := newServer(t, checkouttest.Config{Listener: l})
	require.Equal(t, 200, postOrder(t, s, orderForm("ord_o")).status)
	port := portOf(t, s)
	requireRebindingRefused(t, s, "ord_o", "rebind.evil.example:"+port, "fake.test:"+port)
	require.Equal(t, 200, hostReply(t, s, http.MethodGet, net.JoinHostPort(own.String(), port), "/orders/ord_o", authHeaders()).status)
}

// Config.Hosts takes names and addresses, nothing a Host check could not
// match.
func TestConfigHosts(t *testing.T) {
	cfg := checkouttest.Config{MerchantID: merchantID, APIKey: apiKey,
		Hosts: []string{"fake.test", "10.0.0.7", "[::1]", "", "http://fake.test", "fake.test:8080", "*.fake.test", "fake_test", "a..b"}}
	err := cfg.Validate()
	require.ErrorIs(t, err, checkout.ErrInvalidRequest)
	var ve *checkout.ValidationError
	require.ErrorAs(t, err, &ve)
	var paths []string
	for _, p := range ve.Problems {
		paths = append(paths, p.Path)
	}
	require.Equal(t, []string{"Hosts[3]", "Hosts[4]", "Hosts[5]", "Hosts[6]", "Hosts[7]", "Hosts[8]"}, paths)
}

// nonLoopbackAddr is an address of this machine's beyond loopback, or the
// zero Addr.
func nonLoopbackAddr(t *testing.T) netip.Addr {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		if err == nil && p.Addr().Is4() && !p.Addr().IsLoopback() && !p.Addr().IsLinkLocalUnicast() {
			return p.Addr()
		}
	}
	return netip.Addr{}
}
