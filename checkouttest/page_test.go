package checkouttest_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

// optionControls finds the values of the page's payment option controls.
var optionControls = regexp.MustCompile(`<input type="radio" name="option" id="[^"]*" value="([^"]*)"`)

// TestPaymentPageShowsThePreview creates a session for every rule through
// the SDK and checks that the page's controls are exactly the visible
// options of the preview, and that no hidden option is a control.
func TestPaymentPageShowsThePreview(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	for i, tc := range append(lockingCases(), emiCases()...) {
		t.Run(tc.name, func(t *testing.T) {
			req := pageSession("ord_rule_"+strconv.Itoa(i), tc.filter)
			req.EMI = tc.udf
			if err := req.Validate(); tc.invalid {
				require.Error(t, err, "the SDK takes this filter: check it on the page")
				return
			} else {
				require.NoError(t, err)
			}
			sess, err := c.CreateSession(context.Background(), req)
			if tc.wire != "" {
				require.ErrorIs(t, err, checkout.ErrInvalidRequest)
				require.Equal(t, tc.wire, apiError(t, err).Info.Fields[0].FieldName, "the fake refuses it")
				return
			}
			require.NoError(t, err)
			page := getPage(t, sess.PaymentLinks.Web)
			var controls []string
			for _, m := range optionControls.FindAllStringSubmatch(page, -1) {
				controls = append(controls, m[1])
			}
			p := checkouttest.PreviewPage(tc.filter, tc.udf)
			var visible []string
			for _, o := range p.Visible() {
				visible = append(visible, o.Value)
			}
			require.Equal(t, visible, controls)
			for _, o := range p.Options {
				if !o.Visible {
					require.NotContains(t, page, `value="`+o.Value+`"`)
				}
			}
			require.Equal(t, p.BINCheck, strings.Contains(page, `name="card_number"`))
			require.Equal(t, len(visible) > 0, strings.Contains(page, `id="pay"`))
		})
	}
}

// pageSession is a payment session with filter f.
func pageSession(orderID string, f *paymentfilter.Filter) *checkout.SessionRequest {
	return &checkout.SessionRequest{
		OrderID: orderID, Amount: "1499.00", CustomerID: "cust_1", CustomerPhone: "9876543210", CustomerEmail: "a@example.com",
		PaymentPageClientID: "shop", Action: checkout.PaymentPage, PaymentFilter: f,
	}
}

// getPage loads a page and returns its HTML, failing unless it is 200.
func getPage(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	return string(body)
}

const responseKey = "resp_key_7d1"

// pageFake is a fake whose webhooks reach a receiver that answers 200,
// with TXN_CREATED enabled besides the defaults.
func pageFake(t *testing.T, key string) (*checkouttest.Server, *checkout.Client) {
	t.Helper()
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	t.Cleanup(receiver.Close)
	s := newServer(t, checkouttest.Config{ResponseKey: key, Webhook: checkouttest.WebhookConfig{
		URL: receiver.URL, Events: append(checkouttest.DefaultEvents(), checkouttest.EventTxnCreated)}})
	c, err := checkout.NewClient(merchantID, apiKey, checkout.WithBaseURL(s.URL))
	require.NoError(t, err)
	return s, c
}

// createPage creates a payment session and returns its payment_links.web.
func createPage(t *testing.T, c *checkout.Client, req *checkout.SessionRequest) string {
	t.Helper()
	sess, err := c.CreateSession(context.Background(), req)
	require.NoError(t, err)
	return sess.PaymentLinks.Web
}

type pageReply struct {
	status   int
	location string
	body     string
}

// pay posts the payment form to a page and does not follow redirects.
func pay(t *testing.T, page string, form url.Values) pageReply {
	t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(page, form)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return pageReply{resp.StatusCode, resp.Header.Get("Location"), string(body)}
}

// events waits for the deliveries and returns the event names sent for
// orderID, in order.
func events(t *testing.T, s *checkouttest.Server, orderID string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.WaitDeliveries(ctx))
	var out []string
	for _, d := range s.Deliveries() {
		if d.OrderID == orderID {
			require.True(t, d.Notified, d.EventName)
			out = append(out, d.EventName)
		}
	}
	return out
}

func TestPaymentPagePays(t *testing.T) {
	for _, tc := range []struct {
		option, outcome  string
		status           string
		statusID         int
		methodType, meth string
		events           []string
	}{
		{"UPI:GPAY", "success", "CHARGED", 21, "UPI", "UPI", []string{"TXN_CREATED", "ORDER_SUCCEEDED"}},
		{"CARD:DEBIT:RUPAY:SBI:CLASSIC", "success", "CHARGED", 21, "CARD", "RUPAY", []string{"TXN_CREATED", "ORDER_SUCCEEDED"}},
		{"EMI:noCostEmi:credit:SVC_HDFC:6", "success", "CHARGED", 21, "CARD", "CARD", []string{"TXN_CREATED", "ORDER_SUCCEEDED"}},
		{"EMI:standardEmi:cardless:SVC_KOTAK:3", "success", "CHARGED", 21, "CONSUMER_FINANCE", "CARDLESS", []string{"TXN_CREATED", "ORDER_SUCCEEDED"}},
		{"NB:NB_HDFC", "failure", "AUTHORIZATION_FAILED", 27, "NB", "NB_HDFC", []string{"TXN_CREATED", "ORDER_FAILED"}},
		{"WALLET:PAYTM", "pending", "PENDING_VBV", 23, "WALLET", "PAYTM", []string{"TXN_CREATED"}},
	} {
		t.Run(tc.option+" "+tc.outcome, func(t *testing.T) {
			s, c := pageFake(t, responseKey)
			req := pageSession("ord_pay", nil)
			req.ReturnURL = "https://shop.example/return?cart=42"
			page := createPage(t, c, req)
			r := pay(t, page, url.Values{"option": {tc.option}, "outcome": {tc.outcome}})
			require.Equal(t, http.StatusSeeOther, r.status, r.body)
			to, err := url.Parse(r.location)
			require.NoError(t, err)
			require.Equal(t, "https://shop.example/return", to.Scheme+"://"+to.Host+to.Path)
			ret, err := checkout.VerifyReturn(to.Query(), responseKey)
			require.NoError(t, err)
			require.Equal(t, checkout.ReturnRedirect{OrderID: "ord_pay", Status: tc.status, StatusID: tc.statusID, Params: ret.Params}, ret)
			require.Equal(t, "42", ret.Params.Get("cart"))

			st, err := c.GetOrder(context.Background(), "ord_pay")
			require.NoError(t, err)
			require.Equal(t, tc.status, string(st.Status))
			require.Equal(t, tc.methodType, st.PaymentMethodType)
			require.Equal(t, tc.meth, st.PaymentMethod)
			require.Equal(t, tc.events, events(t, s, "ord_pay"))
			o, err := s.Order("ord_pay")
			require.NoError(t, err)
			require.Equal(t, tc.status != "PENDING_VBV", strings.Contains(string(o.Raw), `"payment_gateway_response"`), "a pending payment has no gateway answer yet")
		})
	}
}

func TestPaymentPageRetriesAndFinishes(t *testing.T) {
	s, c := pageFake(t, responseKey)
	page := createPage(t, c, pageSession("ord_retry", nil))
	// Without a return_url the result is shown on the page, with the form
	// again while the order can still be paid.
	r := pay(t, page, url.Values{"option": {"UPI:@ybl"}, "outcome": {"failure"}})
	require.Equal(t, http.StatusOK, r.status)
	require.Contains(t, r.body, "the order is now AUTHORIZATION_FAILED (status_id 27)")
	require.Contains(t, r.body, `id="pay"`)
	r = pay(t, page, url.Values{"option": {"UPI:@ybl"}, "outcome": {"pending"}})
	require.Contains(t, r.body, "the order is now PENDING_VBV (status_id 23)")
	require.NoError(t, s.Pay("ord_retry"), "a pending payment is finished by Pay")
	o, err := s.Order("ord_retry")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusCharged, o.Status)
	require.Equal(t, []string{"TXN_CREATED", "ORDER_FAILED", "TXN_CREATED", "TXN_CREATED", "ORDER_SUCCEEDED"}, events(t, s, "ord_retry"))

	// A paid order's page shows the result and no form; paying again is refused.
	html := getPage(t, page)
	require.Contains(t, html, "This order is CHARGED (status_id 21): there is nothing left to pay.")
	require.NotContains(t, html, "<form")
	r = pay(t, page, url.Values{"option": {"UPI:@ybl"}, "outcome": {"success"}})
	require.Equal(t, http.StatusConflict, r.status)
}

func TestPaymentPageRefuses(t *testing.T) {
	s, c := pageFake(t, responseKey)
	req := pageSession("ord_refuse", paymentfilter.New().Hide(paymentfilter.Wallet).HideBINRanges(bin("459000", "460000")))
	req.ReturnURL = "https://shop.example/return"
	page := createPage(t, c, req)
	card := "CARD:DEBIT:VISA:SBI:CLASSIC"
	for _, tc := range []struct {
		name string
		form url.Values
		want string
	}{
		{"no option", url.Values{"outcome": {"success"}}, "Choose a payment option."},
		{"a hidden option", url.Values{"option": {"WALLET:PAYTM"}, "outcome": {"success"}},
			`The option &#34;WALLET:PAYTM&#34; is not offered on this page. payment_filter.options[0]: WALLET enable: false hides the type.`},
		{"an unknown option", url.Values{"option": {"CARD:GOLD"}, "outcome": {"success"}}, `The option &#34;CARD:GOLD&#34; is not offered on this page.`},
		{"an unknown outcome", url.Values{"option": {"UPI:GPAY"}, "outcome": {"maybe"}}, "Choose an outcome: success, failure or pending."},
		{"a card number that is not one", url.Values{"option": {card}, "outcome": {"success"}, "card_number": {"4213 23xx"}}, "A card number is 12 to 19 digits."},
		{"a card in a hidden BIN range", url.Values{"option": {card}, "outcome": {"success"}, "card_number": {"4591 5012 3456 7890"}},
			"The filter does not accept this card: payment_filter.options[1].cardFilters[0] (enable: false) matches it."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := pay(t, page, tc.form)
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Contains(t, r.body, `<p class="error" id="page-error" role="alert">`+tc.want+`</p>`)
			o, err := s.Order("ord_refuse")
			require.NoError(t, err)
			require.Equal(t, checkouttest.StatusNew, o.Status, "a refused form changes nothing")
		})
	}
	// The choices are kept on the page shown again.
	r := pay(t, page, url.Values{"option": {"UPI:GPAY"}, "outcome": {"maybe"}})
	require.Regexp(t, `value="UPI:GPAY" checked`, r.body)

	resp, err := http.Post(page, "text/plain", strings.NewReader("option=UPI:GPAY"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)

	// Another site's page cannot post the form for the tester.
	form := url.Values{"option": {"UPI:GPAY"}, "outcome": {"success"}}
	for _, h := range []http.Header{{"Origin": {"https://evil.example"}}, {"Sec-Fetch-Site": {"cross-site"}}} {
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		got := send(t, http.MethodPost, page, h, []byte(form.Encode()))
		require.Equal(t, http.StatusForbidden, got.status, "%v", h)
	}
	o, err := s.Order("ord_refuse")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusNew, o.Status)

	u, err := url.Parse(page)
	require.NoError(t, err)
	h := http.Header{"Origin": {"http://" + u.Host}, "Sec-Fetch-Site": {"same-origin"}, "Content-Type": {"application/x-www-form-urlencoded"}}
	form = url.Values{"option": {card}, "outcome": {"success"}, "card_number": {"4213231234567890"}}
	post, err := http.NewRequest(http.MethodPost, page, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	post.Header = h
	resp, err = (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(post)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "the page's own form: a card outside the hidden range is taken")
	require.Empty(t, events(t, s, "ord_refuse")[2:])
}

func TestPaymentPagePaysOnce(t *testing.T) {
	s, c := pageFake(t, responseKey)
	page := createPage(t, c, pageSession("ord_once", nil))
	var wg sync.WaitGroup
	codes := make(chan int, 8)
	for range 8 {
		wg.Go(func() {
			resp, err := http.PostForm(page, url.Values{"option": {"UPI:GPAY"}, "outcome": {"success"}})
			if err == nil {
				resp.Body.Close()
				codes <- resp.StatusCode
			}
		})
	}
	wg.Wait()
	close(codes)
	counts := map[int]int{}
	for c := range codes {
		counts[c]++
	}
	require.Equal(t, map[int]int{http.StatusOK: 1, http.StatusConflict: 7}, counts)
	require.Equal(t, []string{"TXN_CREATED", "ORDER_SUCCEEDED"}, events(t, s, "ord_once"))
}

func TestPaymentPageResultWithoutSignedRedirect(t *testing.T) {
	_, c := pageFake(t, "") // no response key: the redirect cannot be signed
	req := pageSession("ord_unsigned", nil)
	req.ReturnURL = "https://shop.example/return"
	r := pay(t, createPage(t, c, req), url.Values{"option": {"CASH:CASH"}, "outcome": {"success"}})
	require.Equal(t, http.StatusOK, r.status)
	require.Contains(t, r.body, "Paid with Cash on delivery (CASH:CASH): the order is now CHARGED (status_id 21).")
	require.Contains(t, r.body, "The order has a return_url, but the redirect cannot be signed")
}

func TestPaymentPageOfEveryLink(t *testing.T) {
	s, _ := pageFake(t, responseKey)
	created := postOrder(t, s, orderForm("ord_links"))
	require.Equal(t, http.StatusOK, created.status)
	st := getOrder(t, s, "ord_links")
	links := st.json["payment_links"].(map[string]any)
	require.Equal(t, created.json["payment_links"].(map[string]any)["web"], links["web"])
	for key, mark := range map[string]string{"web": "<body>", "mobile": `<body class="mobile">`, "iframe": `target="_top"`} {
		html := getPage(t, links[key].(string))
		require.Contains(t, html, mark, key)
		require.Contains(t, html, `<span id="amount">₹25.50</span>`, key)
		require.Contains(t, html, "This order was made by POST /orders", key)
		require.Len(t, optionControls.FindAllString(html, -1), len(checkouttest.PreviewPage(nil, "").Options), key)
	}
	// The iframe page posts to itself, keeping the mark.
	html := getPage(t, links["iframe"].(string))
	require.Contains(t, html, `action="/orders/`+st.json["id"].(string)+`/payment-page?iframe=true"`)
	require.Contains(t, html, "This is the iframe link: the form opens what follows in the top window")

	resp, err := http.Get(s.URL + "/orders/ordeh_nope/payment-page")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	req, err := http.NewRequest(http.MethodPut, links["web"].(string), nil)
	require.NoError(t, err)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	require.Equal(t, "GET, HEAD, POST", resp.Header.Get("Allow"))
}

func TestPaymentPageAmountGrouping(t *testing.T) {
	_, c := pageFake(t, responseKey)
	req := pageSession("ord_lakh", nil)
	req.Amount = "123456.00"
	html := getPage(t, createPage(t, c, req))
	require.Contains(t, html, `<span id="amount">₹1,23,456.00</span>`)
	require.Contains(t, html, `<button type="submit" id="pay">Pay ₹1,23,456.00</button>`)
}

// TestPaymentPageIsPlain checks the page's constraints: no script, no
// asset from another host but the summary's images, a label for every
// control, a legend for every group.
func TestPaymentPageIsPlain(t *testing.T) {
	_, c := pageFake(t, responseKey)
	req := pageSession("ord_plain", paymentfilter.New().HideBINRanges(bin("459000", "460000")))
	req.ProductSummary = everyItem()
	page := createPage(t, c, req)
	resp, err := http.Get(page)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	html := string(body)
	require.Equal(t, "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'", resp.Header.Get("Content-Security-Policy"))
	require.NotContains(t, strings.ToLower(html), "<script")
	require.NotContains(t, strings.ToLower(html), "<link")
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		require.True(t, strings.HasPrefix(m[1], "https://img.shop.example/"), "asset %s", m[1])
	}
	ids := regexp.MustCompile(`<input [^>]*id="([^"]+)"`).FindAllStringSubmatch(html, -1)
	require.Greater(t, len(ids), 100)
	for _, m := range ids {
		require.Contains(t, html, `<label for="`+m[1]+`"`, "control %s has no label", m[1])
	}
	require.Equal(t, strings.Count(html, "<fieldset"), strings.Count(html, "<legend>"))
	require.Contains(t, html, `<html lang="en">`)
}

func TestPaymentPageNotes(t *testing.T) {
	_, c := pageFake(t, responseKey)
	req := pageSession("ord_notes", paymentfilter.New().HideMethods(paymentfilter.Wallet, "LAZYPAY,SIMPL"))
	html := getPage(t, createPage(t, c, req))
	require.Contains(t, html, `<ul id="filter-notes"><li>payment_filter.options[0].paymentMethods has an entry holding commas`)
	require.Contains(t, html, "the spec does not publish the service&#39;s lists")

	// A later session for the same order shows its own filter.
	req.PaymentFilter = paymentfilter.Only(paymentfilter.NB)
	html = getPage(t, createPage(t, c, req))
	require.Len(t, optionControls.FindAllString(html, -1), 5)
	require.NotContains(t, html, `id="filter-notes"`)
}

func TestPaymentPageNothingToPay(t *testing.T) {
	_, c := pageFake(t, responseKey)
	html := getPage(t, createPage(t, c, pageSession("ord_empty", paymentfilter.Only(paymentfilter.Card).ShowCardBrands("SODEXO"))))
	require.Contains(t, html, "The filter leaves no payment option: there is nothing to pay with.")
	require.NotContains(t, html, `id="pay"`)
	require.Contains(t, html, "Hidden: allowDefaultOptions is false and no enable: true entry of payment_filter.options[0].cardFilters selects it.")
}

// The form values the package doc gives for driving the page with curl
// are options of the page, so a test copying them pays.
func TestDocumentedFormValues(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	i := strings.Index(string(doc), `"option" is the`)
	require.GreaterOrEqual(t, i, 0)
	values := regexp.MustCompile(`"([A-Z]+:[^"]+)"`).FindAllStringSubmatch(string(doc[i:i+600]), -1)
	require.GreaterOrEqual(t, len(values), 6)
	p := checkouttest.PreviewPage(paymentfilter.New(), emi.Show)
	for _, v := range values {
		o, ok := p.Option(v[1])
		require.True(t, ok && o.Visible, v[1])
	}

	s, c := pageFake(t, responseKey)
	page := createPage(t, c, pageSession("ord_doc", paymentfilter.New()))
	r := pay(t, page, url.Values{"option": {"WALLET:PAYTM"}, "outcome": {"success"}})
	require.Equal(t, http.StatusOK, r.status, "no return_url: the result on the page")
	o, err := s.Order("ord_doc")
	require.NoError(t, err)
	require.Equal(t, checkouttest.StatusCharged, o.Status)
}
