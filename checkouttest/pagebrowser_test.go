package checkouttest_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/webhook"
)

// requireBrowserEnv, set to 1 (as the project's CI does), turns a missing
// Chromium into a failure instead of a skip.
const requireBrowserEnv = "CHECKOUT_REQUIRE_BROWSER"

// chromiumNames are the commands looked up on PATH for a headless
// Chromium, Debian's package first.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// browser starts a headless Chromium for the test, with page scripts off
// (the payment page must work without JavaScript), and returns a context
// for its tab. Without Chromium the test is skipped, unless
// CHECKOUT_REQUIRE_BROWSER=1.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		msg := fmt.Sprintf("headless Chromium not found on PATH (looked for %s): the payment page's browser tests need it; "+
			"install Debian's chromium package (apt-get install chromium)", strings.Join(chromiumNames, ", "))
		if os.Getenv(requireBrowserEnv) == "1" {
			t.Fatal(msg + "; " + requireBrowserEnv + "=1 makes this a failure")
		}
		t.Skip(msg + "; set " + requireBrowserEnv + "=1 to make this a failure")
	}
	// A closed network refuses Chromium's background connections unless
	// they are switched off; the profile is the test's own.
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()))
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	// A bound for a hung browser, not a timing assertion.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancel)
	_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	require.NoError(t, err, "start %s", path)
	return ctx
}

// shop is a merchant's server: the return_url handler, which checks the
// redirect with checkout.VerifyReturn, the webhook handler of package
// webhook (with its duplicate detection), and a product image.
type shop struct {
	*httptest.Server
	mu      sync.Mutex
	events  []string // "EVENT_NAME order_id", as processed
	images  atomic.Int32
	returns atomic.Int32
}

const (
	hookUser = "shop"
	hookPass = "hook-secret"
)

func newShop(t *testing.T) *shop {
	t.Helper()
	v, err := webhook.NewVerifier(webhook.Config{Username: hookUser, Password: hookPass, AllowAnySource: true})
	require.NoError(t, err)
	sh := &shop{}
	var logo bytes.Buffer
	require.NoError(t, png.Encode(&logo, image.NewRGBA(image.Rect(0, 0, 24, 24))))
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", v.Handler(func(_ context.Context, ev *webhook.Event) error {
		st, err := ev.Order()
		if err != nil {
			return err
		}
		sh.mu.Lock()
		sh.events = append(sh.events, ev.Name+" "+st.OrderID)
		sh.mu.Unlock()
		return nil
	}))
	mux.HandleFunc("GET /return", func(w http.ResponseWriter, r *http.Request) {
		sh.returns.Add(1)
		ret, err := checkout.VerifyReturn(r.URL.Query(), responseKey)
		if err != nil {
			fmt.Fprintf(w, `<!DOCTYPE html><title>Refused</title><p id="refused">%s</p>`, html.EscapeString(err.Error()))
			return
		}
		fmt.Fprintf(w, `<!DOCTYPE html><title>Thank you</title><p id="verified">Order %s is %s (status_id %d); cart %s</p>`,
			html.EscapeString(ret.OrderID), html.EscapeString(ret.Status), ret.StatusID, html.EscapeString(ret.Params.Get("cart")))
	})
	mux.HandleFunc("GET /img/logo.png", func(w http.ResponseWriter, _ *http.Request) {
		sh.images.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(logo.Bytes())
	})
	sh.Server = httptest.NewServer(mux)
	t.Cleanup(sh.Close)
	return sh
}

func (sh *shop) processed() []string {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return slices.Clone(sh.events)
}

// browserFake is a fake whose webhooks reach the shop, each delivered
// twice (the service may send one more than once).
func browserFake(t *testing.T, sh *shop) (*checkouttest.Server, *checkout.Client) {
	t.Helper()
	s := newServer(t, checkouttest.Config{ResponseKey: responseKey, Webhook: checkouttest.WebhookConfig{
		URL: sh.URL + "/webhooks", Username: hookUser, Password: hookPass, Duplicates: 1}})
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	return s, c
}

// controls returns the values of the page's payment option controls.
func controls(t *testing.T, ctx context.Context) []string {
	t.Helper()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(`input[name="option"]`)))
	require.NoError(t, err)
	var out []string
	for _, n := range nodes {
		out = append(out, n.AttributeValue("value"))
	}
	return out
}

// pick clicks the label of the control with the given value, as a
// customer does.
func pick(t *testing.T, ctx context.Context, name, value string) {
	t.Helper()
	id, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`input[name="`+name+`"][value="`+value+`"]`), "id"))
	require.NoError(t, err)
	require.True(t, id.Exists, value)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`label[for="`+id.Value+`"]`))))
}

// payNow clicks the pay button and waits for the page it leads to.
func payNow(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS("#pay"))))
	require.NoError(t, err)
}

// display returns the computed CSS display of the element: "none" when
// it is hidden.
func display(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	props, err := chromedp.Run(ctx, chromedp.ComputedStyle(chromedp.CSS(css)))
	require.NoError(t, err, css)
	for _, p := range props {
		if p.Name == "display" {
			return p.Value
		}
	}
	t.Fatalf("%s has no computed display", css)
	return ""
}

func text(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(css)))
	require.NoError(t, err, css)
	return strings.TrimSpace(s)
}

// TestBrowserPaysOnThePage is the merchant's whole flow in a browser: a
// session made through the SDK with a filter (wallets hidden, two UPI
// apps shown, no-cost EMI only) and a product summary; its page shows
// exactly what the filter leaves; the customer opens the summary, picks
// Google Pay and pays; the browser lands on the shop's return handler,
// whose VerifyReturn accepts the redirect; the shop processes the
// webhook once although the fake delivers it twice.
func TestBrowserPaysOnThePage(t *testing.T) {
	ctx := browser(t)
	sh := newShop(t)
	s, c := browserFake(t, sh)
	filter := paymentfilter.Only(paymentfilter.Card, paymentfilter.NB).Hide(paymentfilter.Wallet).
		ShowUPIApps("GPAY", "PHONEPE").EMI(emi.New().Disable(emi.Standard, emi.LowCost).Enable(emi.NoCost))
	req := pageSession("ord_browser_1", filter)
	req.ReturnURL = sh.URL + "/return?cart=42"
	req.ProductSummary = productsummary.New().
		Line(productsummary.Image{URL: sh.URL + "/img/logo.png", Size: 24}, productsummary.Text{Text: "Cotton T-shirt", FontType: productsummary.Bold},
			productsummary.Space{Weight: 1}, productsummary.Text{Text: "₹1,499.00"}, productsummary.ToggleImage{}).
		ShadedLine("#FFF3CD", productsummary.Text{Text: "Free delivery"}).
		Line(productsummary.Space{Weight: 1}, productsummary.ToggleImage{CloseIcon: ""})
	sess, err := c.CreateSession(context.Background(), req)
	require.NoError(t, err)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(sess.PaymentLinks.Web), chromedp.WaitVisible(chromedp.CSS("#pay"))))
	title, err := chromedp.Run(ctx, chromedp.Title())
	require.NoError(t, err)
	require.Equal(t, "Pay ₹1,499.00: order ord_browser_1 (checkouttest)", title)
	require.Equal(t, "Pay ₹1,499.00", text(t, ctx, "#pay"))

	// Exactly the options the filter leaves are controls.
	got := controls(t, ctx)
	var want []string
	for _, o := range checkouttest.PreviewPage(filter, "").Visible() {
		want = append(want, o.Value)
	}
	require.Equal(t, want, got)
	require.False(t, slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, "WALLET:") }), "wallets hidden")
	var apps []string
	for _, v := range got {
		if strings.HasPrefix(v, "UPI:") && !strings.HasPrefix(v, "UPI:@") {
			apps = append(apps, v)
		}
		if strings.HasPrefix(v, "EMI:") {
			require.True(t, strings.HasPrefix(v, "EMI:noCostEmi:"), v)
		}
	}
	require.Equal(t, []string{"UPI:GPAY", "UPI:PHONEPE"}, apps)
	require.True(t, slices.Contains(got, "EMI:noCostEmi:credit:SVC_ICICI:9"))
	wallets, err := chromedp.Run(ctx, chromedp.Text(chromedp.Search(`//fieldset[legend="Wallets"]`)))
	require.NoError(t, err)
	require.Contains(t, wallets, "Hidden: payment_filter.options[2]: WALLET enable: false hides the type.")

	// The summary: its image loaded from the shop, its details closed
	// until the toggle opens them, and closed again by the one below.
	require.Positive(t, sh.images.Load())
	require.Equal(t, "none", display(t, ctx, "#summary-details"))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#product-summary > .line label[for="summary-toggle"]`))))
	require.Equal(t, "block", display(t, ctx, "#summary-details"))
	require.Equal(t, "Free delivery", text(t, ctx, "#summary-details .text"))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#summary-details label[for="summary-toggle"]`))))
	require.Equal(t, "none", display(t, ctx, "#summary-details"))

	// Pay with Google Pay; the shop's return handler verifies the redirect.
	pick(t, ctx, "option", "UPI:GPAY")
	pick(t, ctx, "outcome", "success")
	payNow(t, ctx)
	require.Equal(t, "Order ord_browser_1 is CHARGED (status_id 21); cart 42", text(t, ctx, "#verified, #refused, #page-error"))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(loc, sh.URL+"/return?"), loc)

	wctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.WaitDeliveries(wctx))
	require.Equal(t, []string{"ORDER_SUCCEEDED ord_browser_1"}, sh.processed(), "processed once")
	sent := 0
	for _, d := range s.Deliveries() {
		require.True(t, d.Notified)
		sent++
	}
	require.Equal(t, 2, sent, "the fake delivered the event twice")
	st, err := c.GetOrder(context.Background(), "ord_browser_1")
	require.NoError(t, err)
	require.Equal(t, checkout.StatusCharged, st.Status)
	require.Equal(t, "UPI", st.PaymentMethodType)
}

// TestBrowserChecksTheCardAndShowsTheResult drives a page whose filter
// hides a BIN range and whose order has no return_url: a card number in
// the range is refused on the page, another one fails as the tester
// asked, and the result is shown on the page, which offers to pay again.
func TestBrowserChecksTheCardAndShowsTheResult(t *testing.T) {
	ctx := browser(t)
	sh := newShop(t)
	s, c := browserFake(t, sh)
	sess, err := c.CreateSession(context.Background(), pageSession("ord_browser_2",
		paymentfilter.New().HideBINRanges(paymentfilter.BINRange{From: "459000", To: "460000"})))
	require.NoError(t, err)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(sess.PaymentLinks.Web), chromedp.WaitVisible(chromedp.CSS("#card_number"))))
	require.NotContains(t, controls(t, ctx), "CARD:CREDIT:VISA:ICICI:PLATINUM", "its test card's BIN is in the hidden range")
	pick(t, ctx, "option", "CARD:DEBIT:VISA:SBI:CLASSIC")
	pick(t, ctx, "outcome", "failure")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#card_number"), "4591 5012 3456 7890")))
	payNow(t, ctx)
	require.Equal(t, "The filter does not accept this card: payment_filter.options[0].cardFilters[0] (enable: false) matches it.", text(t, ctx, "#page-error, #result"))
	o, err := s.Order("ord_browser_2")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusNew, o.Status)

	// The page kept the choices; another card number goes through.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Clear(chromedp.CSS("#card_number")),
		chromedp.SendKeys(chromedp.CSS("#card_number"), "4213 2312 3456 7890")))
	payNow(t, ctx)
	require.Equal(t, "Paid with VISA debit card, SBI, CLASSIC, BIN 421323 (CARD:DEBIT:VISA:SBI:CLASSIC): the order is now AUTHORIZATION_FAILED (status_id 27).",
		text(t, ctx, "#page-error, #result"))
	require.Equal(t, "AUTHORIZATION_FAILED (status_id 27)", text(t, ctx, "#order-status"))
	require.Equal(t, "Pay ₹1,499.00", text(t, ctx, "#pay"), "a failed order can be paid again")

	wctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.WaitDeliveries(wctx))
	require.Equal(t, []string{"ORDER_FAILED ord_browser_2"}, sh.processed())
	require.Zero(t, sh.returns.Load(), "no return_url, no redirect")
}
