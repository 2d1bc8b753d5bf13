package checkouttest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/productsummary"
)

// everyItem is a summary with every item kind: a line before the
// accordion, its header, and the lines it opens.
func everyItem() *productsummary.Summary {
	img := "https://img.shop.example/"
	return productsummary.New().
		Line(productsummary.Text{Text: "Your order"}).
		Line(productsummary.Image{URL: img + "logo.png", Size: 24}, productsummary.Space{Width: 8},
			productsummary.Text{Text: "Cotton T-shirt", Color: "#1A2B3C", TextSize: 16, FontType: "Bold"},
			productsummary.Space{Weight: 1}, productsummary.Text{Text: "₹1,499.00", FontType: productsummary.SemiBold},
			productsummary.ToggleImage{OpenIcon: img + "open.png", CloseIcon: img + "close.png", Size: 18}).
		Divider(2, "#80FF0000").
		EmptyLine().
		ShadedLine("#FFF3CD", productsummary.Text{Text: "Free delivery"}).
		Line(productsummary.Space{Weight: 1}, productsummary.Text{Text: "Hide details"}, productsummary.ToggleImage{CloseIcon: img + "close.png"})
}

func TestPaymentPageSummary(t *testing.T) {
	_, c := pageFake(t, responseKey)
	req := pageSession("ord_summary", nil)
	req.ProductSummary = everyItem()
	html := getPage(t, createPage(t, c, req))
	img := "https://img.shop.example/"
	// In page order: the line before the accordion, the checkbox the
	// toggle images label, the header line, and the body it opens.
	parts := []string{
		`<section class="summary" id="product-summary" aria-label="Product summary">`,
		`<div class="line"><span class="text" style="">Your order</span></div>`,
		`<input type="checkbox" id="summary-toggle" class="acc-toggle">`,
		`<div class="line"><img class="image" src="` + img + `logo.png" alt="" style="width:24px;height:24px">` +
			`<span class="space" style="width:8px;"></span>` +
			`<span class="text" style="color:#1a2b3c;font-size:16px;font-weight:700;">Cotton T-shirt</span>` +
			`<span class="space" style="flex-grow:1;"></span>` +
			`<span class="text" style="font-weight:600;">₹1,499.00</span>` +
			`<label for="summary-toggle" class="toggle"><span class="when-closed"><img src="` + img + `open.png" alt="Show details" style="width:18px;height:18px"></span>` +
			`<span class="when-open"><img src="` + img + `close.png" alt="Hide details" style="width:18px;height:18px"></span></label></div>`,
		`<div class="acc-body" id="summary-details">`,
		`<div class="line"><hr class="divider" style="border-top:2px solid #FF000080"></div>`, // #AARRGGBB as CSS #RRGGBBAA
		`<div class="line empty"><span class="space" style=""></span></div>`,
		`<div class="line" style="background-color:#fff3cd"><span class="text" style="">Free delivery</span></div>`,
		`<span class="text" style="">Hide details</span><label for="summary-toggle" class="toggle"><span class="when-open"><img src="` + img + `close.png" alt="Hide details"></span></label></div>`,
		`</div>`,
		`</section>`,
	}
	at := 0
	for _, p := range parts {
		i := strings.Index(html[at:], p)
		require.GreaterOrEqual(t, i, 0, "not found after offset %d: %s", at, p)
		at += i + len(p)
	}
}

func TestPaymentPageSummaryWithoutAccordion(t *testing.T) {
	_, c := pageFake(t, responseKey)
	req := pageSession("ord_flat", nil)
	req.ProductSummary = productsummary.New().Line(productsummary.Text{Text: "Total"}).
		Line(productsummary.Text{Text: "Show"}, productsummary.ToggleImage{}) // both icons unused
	html := getPage(t, createPage(t, c, req))
	require.Contains(t, html, `<label for="summary-toggle" class="toggle"><span class="when-closed">Show details ▾</span><span class="when-open">Hide details ▴</span></label>`)

	req = pageSession("ord_flat2", nil)
	req.ProductSummary = productsummary.New().Line(productsummary.Text{Text: "Total"})
	html = getPage(t, createPage(t, c, req))
	require.Contains(t, html, `<div class="line"><span class="text" style="">Total</span></div>`)
	require.NotContains(t, html, "summary-toggle")

	html = getPage(t, createPage(t, c, pageSession("ord_none", nil)))
	require.NotContains(t, html, "product-summary")
}
