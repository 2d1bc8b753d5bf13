package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/lint"
	"github.com/payorch/checkout-go/paymentfilter"
	"github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/webhook"
)

// goBlock matches a ```go fenced block of a Markdown file.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// normalisedLines returns the non-blank lines of code with their runs of
// white space folded to one space and the ends trimmed, so a README snippet
// matches the same code indented inside an Example function and aligned by
// gofmt.
func normalisedLines(code string) []string {
	var out []string
	for line := range strings.SplitSeq(code, "\n") {
		if l := strings.Join(strings.Fields(line), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// containsRun reports whether lines holds want as a contiguous run.
func containsRun(lines, want []string) bool {
	for i := 0; i+len(want) <= len(lines); i++ {
		match := true
		for j, w := range want {
			if lines[i+j] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// Every Go snippet of the README is code that compiles and runs: it stands,
// line for line, in a test file of the module (an Example function or a
// test), so the README cannot drift from the API.
func TestREADMESnippetsAreCompiledCode(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	blocks := goBlock.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, blocks, "the README has Go snippets")

	var sources [][]string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources = append(sources, normalisedLines(string(b)))
		}
		return nil
	})
	require.NoError(t, err)

	for _, b := range blocks {
		require.True(t, balanced(b[1]), "README snippet %q opens what it does not close: show it whole", normalisedLines(b[1])[0])
		want := normalisedLines(b[1])
		found := false
		for _, src := range sources {
			if containsRun(src, want) {
				found = true
				break
			}
		}
		require.True(t, found, "README snippet starting %q is not compiled code: copy it into an Example or a test, line for line", want[0])
	}
}

// balanced reports whether code closes every bracket it opens, strings and
// comments aside: a snippet cut off mid-literal is not whole.
func balanced(code string) bool {
	depth := map[rune]int{}
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	for line := range strings.SplitSeq(code, "\n") {
		inString, raw := false, false
		for i, r := range line {
			switch {
			case raw:
				raw = r != '`'
			case inString:
				if r == '"' && (i == 0 || line[i-1] != '\\') {
					inString = false
				}
			case r == '`':
				raw = true
			case r == '"':
				inString = true
			case r == '/' && strings.HasPrefix(line[i:], "//"):
				goto next
			case r == '(' || r == '[' || r == '{':
				depth[r]++
			case r == ')' || r == ']' || r == '}':
				depth[pairs[r]]--
			}
		}
	next:
	}
	for _, d := range depth {
		if d != 0 {
			return false
		}
	}
	return true
}

func TestContainsRun(t *testing.T) {
	require.True(t, balanced("f(x, []int{1}) // (\n\"a(\""))
	require.False(t, balanced("rec, err := reconcile.New(c, reconcile.Config{\n\tStore: nil,"))
	lines := []string{"a", "b", "c", "d"}
	require.True(t, containsRun(lines, []string{"b", "c"}))
	require.False(t, containsRun(lines, []string{"b", "d"}))
	require.False(t, containsRun(lines, []string{"d", "e"}))
	require.Equal(t, []string{"x := 1", "y() // z"}, normalisedLines("\tx  :=\t1\n\n   y()   // z  \n"))
}

// The README's snippets, line for line, as code that compiles and runs
// (TestREADMESnippetsAreCompiledCode checks that every Go block of the
// README stands in a test file). Each snippet sits in a small function;
// Example_readme runs them in the order the README tells them, against the
// fake service.

// mobileApp stands for the channel to the merchant's app, which hands the
// sdk_payload to the client SDK.
type mobileApp struct{ payload json.RawMessage }

func (a *mobileApp) Send(p json.RawMessage) { a.payload = p }

// warehouse stands for the merchant's fulfilment.
type warehouse struct{ shipped []string }

func (w *warehouse) Ship(orderID string) { w.shipped = append(w.shipped, orderID) }

func readmeCreateSession(ctx context.Context, baseURL, merchantID, apiKey string, app *mobileApp) (*checkout.Client, error) {
	c, err := checkout.NewClient(merchantID, apiKey,
		checkout.WithBaseURL(baseURL),       // required: the sandbox or production address your dashboard gives
		checkout.WithLogger(slog.Default())) // optional: debug logs never hold keys, headers or bodies
	if err != nil {
		return nil, err
	}

	sess, err := c.CreateSession(ctx, &checkout.SessionRequest{
		OrderID:             "ord_1001",
		Amount:              "1499.00", // decimal text, never float64: "1499" and "1499.0" are fine too
		CustomerID:          "cust_42",
		CustomerPhone:       "9876543210",
		CustomerEmail:       "asha@example.com",
		PaymentPageClientID: "shop",
		Action:              checkout.PaymentPage,
		PaymentFilter: paymentfilter.New().
			Hide(paymentfilter.Wallet).
			HideCardTypes(paymentfilter.Credit).
			EMI(emi.New().DisableGroup(emi.NoCost, emi.Credit)), // no credit-card plans in no-cost EMI
		EMI: emi.Show, // sdk_udf
		ProductSummary: productsummary.New().
			Line(productsummary.Text{Text: "Running shoes", FontType: productsummary.Bold},
				productsummary.Space{Weight: 1},
				productsummary.Text{Text: "₹1,499.00"}).
			Divider(1, "#D6C190"),
	})
	if err != nil {
		return nil, err
	}
	app.Send(sess.SDKPayload) // json.RawMessage: the exact bytes the service sent, for the SDK's process call
	return c, nil
}

func readmeProblems(err error) {
	var ve *checkout.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			log.Printf("%s: %s", p.Path, p.Message) // payment_filter.options[1].cardFilters[0].cardBins[0]: …
		}
	}
}

func readmeLint(req *checkout.SessionRequest) {
	for _, p := range lint.Check(req) { // advice the service does not enforce, such as two decimal places
		log.Printf("advice: %s: %s", p.Path, p.Message)
	}
}

func readmeCreateOrder(ctx context.Context, c *checkout.Client) error {
	order, err := c.CreateOrder(ctx, &checkout.OrderRequest{
		OrderID:       "ord_1002",
		Amount:        "499.00",
		Currency:      "INR",
		CustomerID:    "cust_42",
		CustomerEmail: "asha@example.com",
		CustomerPhone: "9876543210",
		WebhookURL:    "https://shop.example.com/webhooks/ord_1002", // metadata.webhook_url
		CollectionLinks: &checkout.CollectionLinks{Links: []checkout.CollectionLink{
			{Method: checkout.CollectionQR, Expiry: 15 * time.Minute},
			{Method: checkout.CollectionPay, Expiry: 30 * time.Minute}, // answered as the INTENT link
		}},
	})
	if err != nil {
		return err
	}
	fmt.Println(order.CollectionLinks.QR != "", order.CollectionLinks.Intent != "")
	return nil
}

func readmeFulfil(ctx context.Context, c *checkout.Client, shop *warehouse) error {
	st, err := c.GetOrder(ctx, "ord_1002") // GET /orders/{order_id}
	if err != nil {
		return err
	}
	if err := st.CheckPaid("499.00"); err != nil { // CHARGED, for the amount you expect
		return err // not paid (yet): do not ship
	}
	shop.Ship(st.OrderID)

	st, err = c.Refund(ctx, "ord_1002", &checkout.RefundRequest{UniqueRequestID: "rf_1", Amount: "100.00"})
	if err != nil {
		return err
	}
	fmt.Println(st.Refunds[0].UniqueRequestID, st.Refunds[0].Status)
	return nil
}

func readmeErrors(err error) {
	switch {
	case errors.Is(err, checkout.ErrNotFound): // includes the service's HTTP 400 with status NOT_FOUND
	case errors.Is(err, checkout.ErrUnauthorized):
	case errors.Is(err, checkout.ErrRateLimited): // apiErr.RetryAfter says when
	case errors.Is(err, checkout.ErrInvalidRequest): // refused by Validate before sending, or by the service
	case errors.Is(err, checkout.ErrServer):
	}
	var te *checkout.TransportError
	if errors.As(err, &te) && te.MaybeDelivered {
		// the order may exist: check with GetOrder before creating it again
	}
}

// shopOrders stands for the merchant's order book.
type shopOrders struct{ paid []string }

func (s *shopOrders) Expected(orderID string) checkout.Amount { return "1499.00" }

func (s *shopOrders) MarkPaid(_ context.Context, orderID string) error {
	s.paid = append(s.paid, orderID)
	return nil
}

func readmeWebhooks(username, password string, shop *shopOrders) (*http.ServeMux, error) {
	v, err := webhook.NewVerifier(webhook.Config{
		Username:       username, // the dashboard's Basic credentials
		Password:       password,
		Sources:        webhook.ProductionSources,                           // or webhook.SandboxSources
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, // only these may set X-Forwarded-For
	})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks", v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		switch ev.Name {
		case webhook.OrderSucceeded:
			order, err := ev.Order() // the same *checkout.OrderStatus that GetOrder returns
			if err != nil {
				return err
			}
			if err := order.CheckPaid(shop.Expected(order.OrderID)); err != nil {
				log.Printf("order %s: %v", order.OrderID, err) // a wrong amount will not mend itself: alert, do not ask for a re-send
				return nil
			}
			return shop.MarkPaid(ctx, order.OrderID) // an error replies 500: the service re-sends
		}
		return nil // other events, known or new, are acknowledged
	}))
	return mux, nil
}

// Example_readme runs the README's walk-through against the fake service.
func Example_readme() {
	ctx := context.Background()
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()

	app := &mobileApp{}
	c, err := readmeCreateSession(ctx, fake.URL, "shop", "test_key", app)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sdk_payload handed over:", json.Valid(app.payload))

	_, err = c.CreateSession(ctx, &checkout.SessionRequest{Action: checkout.PaymentPage, Amount: "10.005"})
	readmeProblems(err)
	fmt.Println("refused before sending:", errors.Is(err, checkout.ErrInvalidRequest))
	readmeLint(&checkout.SessionRequest{Amount: "10"})

	if err := readmeCreateOrder(ctx, c); err != nil {
		fmt.Println(err)
		return
	}
	shop := &warehouse{}
	fmt.Println("before payment:", errors.Is(readmeFulfil(ctx, c, shop), checkout.ErrNotPaid))
	if err := fake.Pay("ord_1002"); err != nil {
		fmt.Println(err)
		return
	}
	if err := readmeFulfil(ctx, c, shop); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("shipped:", shop.shipped)

	_, err = c.GetOrder(ctx, "ord_404")
	readmeErrors(err)
	fmt.Println("unknown order:", errors.Is(err, checkout.ErrNotFound))

	shopBook := &shopOrders{}
	mux, err := readmeWebhooks("shopwebhooks", "correct horse battery staple", shopBook)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := webhook.Config{Username: "shopwebhooks", Password: "correct horse battery staple", Sources: webhook.ProductionSources}
	body := []byte(`{"id":"evt_1","event_name":"ORDER_SUCCEEDED","content":{"order":{"order_id":"ord_1001","status":"CHARGED","status_id":21,"amount":1499}}}`)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, webhook.NewTestRequest(cfg, body))
	fmt.Println("webhook:", rec.Code, shopBook.paid)
	// Output:
	// sdk_payload handed over: true
	// refused before sending: true
	// true true
	// before payment: true
	// rf_1 PENDING
	// shipped: [ord_1002]
	// unknown order: true
	// webhook: 200 [ord_1001]
}

// newShop stands for the merchant's own server: here only its webhook
// receiver, which counts the orders it was told were paid. The fake sends
// from loopback, so the test switches the source check off.
func newShop(c *checkout.Client) http.Handler {
	_ = c // a real shop would call c.GetOrder in its handlers
	v, err := webhook.NewVerifier(webhook.Config{Username: "shop", Password: "hook-secret", AllowAnySource: true})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks", v.Handler(func(context.Context, *webhook.Event) error {
		paidEvents.Add(1)
		return nil
	}))
	return mux
}

var paidEvents atomic.Int32

// TestCheckout is the README's "Test your integration" snippet.
func TestCheckout(t *testing.T) {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key"})
	defer fake.Close()

	c, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	require.NoError(t, err)
	shop := httptest.NewServer(newShop(c)) // your handlers, webhook receiver included
	defer shop.Close()
	require.NoError(t, fake.SetWebhook(checkouttest.WebhookConfig{URL: shop.URL + "/webhooks", Username: "shop", Password: "hook-secret"}))

	// … exercise your code with c …
	_, err = c.CreateOrder(context.Background(), &checkout.OrderRequest{OrderID: "ord_1001", Amount: "10.00"})
	require.NoError(t, err)
	require.NoError(t, fake.Pay("ord_1001"))                      // the order is charged and its webhook sent
	require.NoError(t, fake.WaitDeliveries(context.Background())) // the webhook delivered (or given up)
	require.Positive(t, paidEvents.Load())                        // what your webhook receiver recorded
}
