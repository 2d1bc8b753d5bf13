package checkouttest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	checkout "github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/checkouttest"
	"github.com/payorch/checkout-go/emi"
	"github.com/payorch/checkout-go/paymentfilter"
)

// What a filter leaves on the payment page, and why: wallets hidden, one
// UPI app hidden, and EMI switched off by sdk_udf.
func ExamplePreviewPage() {
	f := paymentfilter.New().Hide(paymentfilter.Wallet).HideUPIApps("PHONEPE")
	p := checkouttest.PreviewPage(f, emi.Hide)
	for _, o := range p.Options {
		if o.Section == "UPI apps" || o.Value == "WALLET:PAYTM" || o.Value == "EMI:noCostEmi:credit:SVC_HDFC:3" {
			fmt.Printf("%-5v %-33s %s\n", o.Visible, o.Value, o.Why)
		}
	}
	fmt.Println(len(p.Visible()), "of", len(p.Options), "options shown")
	// Output:
	// true  UPI:GPAY                          payment_filter.options[1]: UPI enable: true
	// false UPI:PHONEPE                       payment_filter.options[1].upiFilters[0] (enable: false) matches it
	// true  UPI:PAYTM                         payment_filter.options[1]: UPI enable: true
	// true  UPI:BHIM                          payment_filter.options[1]: UPI enable: true
	// true  UPI:CRED                          payment_filter.options[1]: UPI enable: true
	// false WALLET:PAYTM                      payment_filter.options[0]: WALLET enable: false hides the type
	// false EMI:noCostEmi:credit:SVC_HDFC:3   sdk_udf hideEMI hides EMI
	// 32 of 114 options shown
}

// A session's payment_links.web is the fake's payment page. A test that
// has no browser posts its form as a browser would: the option (a
// control's value) and the outcome. The fake pays the order, sends the
// webhook and redirects to the return_url, signed for VerifyReturn.
func Example_paymentPage() {
	fake := checkouttest.NewServer(checkouttest.Config{MerchantID: "shop", APIKey: "test_key", ResponseKey: "resp_key"})
	defer fake.Close()
	client, err := checkout.NewClient("shop", "test_key", checkout.WithBaseURL(fake.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	sess, err := client.CreateSession(context.Background(), &checkout.SessionRequest{
		OrderID: "ord_2001", Amount: "1499.00", CustomerID: "cust_42", CustomerPhone: "9876543210",
		CustomerEmail: "asha@example.com", PaymentPageClientID: "shop", Action: checkout.PaymentPage,
		ReturnURL:     "https://shop.example/return",
		PaymentFilter: paymentfilter.Only(paymentfilter.UPI),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(sess.PaymentLinks.Web, url.Values{"option": {"UPI:GPAY"}, "outcome": {"success"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	to, _ := url.Parse(resp.Header.Get("Location"))
	ret, err := checkout.VerifyReturn(to.Query(), "resp_key")
	fmt.Println(resp.StatusCode, strings.Split(to.String(), "?")[0])
	fmt.Println(ret.OrderID, ret.Status, err)
	// Output:
	// 303 https://shop.example/return
	// ord_2001 CHARGED <nil>
}
