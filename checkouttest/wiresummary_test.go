package checkouttest_test

import (
	"strconv"
	"testing"

	"github.com/payorch/checkout-go/checkouttest"
)

// withSummary is a session body whose product_summary is the JSON text
// summary, sent in a string as spec §2.6 says.
func withSummary(summary string) string {
	return sessionJSON("product_summary=" + strconv.Quote(summary))
}

// The rules of product_summary (spec §2.6), one raw body each.
func TestSummaryRules(t *testing.T) {
	const item = "product_summary[0][0]"
	checkRules(t, []rule{
		{"2.6 product_summary is JSON text", withSummary(`[[`), []string{"product_summary"}, false},
		{"2.6 product_summary is an array of lines", withSummary(`{"type":"space"}`), []string{"product_summary"}, false},
		{"2.6 a line is an array of items", withSummary(`[{"type":"space"}]`), []string{"product_summary[0]"}, false},
		{"2.6 an item is an object", withSummary(`[["space"]]`), []string{item}, false},
		{"2.6 an item has a type", withSummary(`[[{"text":"Total"}]]`), []string{item + ".type"}, true},
		{"2.6 type is one of the six", withSummary(`[[{"type":"video","url":"https://x.example/v.mp4"}]]`), []string{item + ".type"}, false},
		{"2.6 type values are case sensitive", withSummary(`[[{"type":"Text","text":"Total"}]]`), []string{item + ".type"}, false},
		{"2.6 a divider's thickness is always required", withSummary(`[[{"type":"divider","color":"#D6C190"}]]`), []string{item + ".thickness"}, true},
		{"2.6 thickness is a number", withSummary(`[[{"type":"divider","thickness":"1"}]]`), []string{item + ".thickness"}, false},
		{"2.6 thickness is more than 0", withSummary(`[[{"type":"divider","thickness":0}]]`), []string{item + ".thickness"}, false},
		{"2.6 a background's color is required", withSummary(`[[{"type":"background"}]]`), []string{item + ".color"}, true},
		{"2.6 color is a hex colour", withSummary(`[[{"type":"text","text":"Total","color":"navy"}]]`), []string{item + ".color"}, false},
		{"2.6 textSize is a number", withSummary(`[[{"type":"text","text":"Total","textSize":"10"}]]`), []string{item + ".textSize"}, false},
		{"2.6 text is a string", withSummary(`[[{"type":"text","text":42}]]`), []string{item + ".text"}, false},
		{"2.6 an image's url is required", withSummary(`[[{"type":"image","size":20}]]`), []string{item + ".url"}, true},
		{"2.6 url is an absolute URL", withSummary(`[[{"type":"image","url":"/logo.png"}]]`), []string{item + ".url"}, false},
		{"2.6 an accordion icon is a URL or empty", withSummary(`[[{"type":"toggleimage","openIcon":"open.png","closeIcon":""}]]`), []string{item + ".openIcon"}, false},
		{"2.6 space weight is a number", withSummary(`[[{"type":"space","weight":"1"}]]`), []string{item + ".weight"}, false},
		{"2.6 item keys are case sensitive", withSummary(`[[{"type":"text","text":"Total","FontType":"bold"}]]`), []string{item + ".FontType"}, false},
	})
}

// What the service's samples send, the fake takes: both spellings of the
// accordion's type, the font types' casings, an empty line, unused icons.
func TestSummaryRulesLetThrough(t *testing.T) {
	s := newServer(t, checkouttest.Config{})
	for i, summary := range []string{
		`[[{"type":"space"}],[{"type":"text","text":"Total","fontType":"Bold","textSize":16,"color":"#032146"},{"type":"space","weight":1}]]`,
		`[[{"type":"toggleImage","openIcon":"https://x.example/o.png","closeIcon":"","size":12}],[{"type":"toggleimage","openIcon":"","closeIcon":""}]]`,
		`[[{"type":"background","color":"#faefd9"},{"type":"image","url":"https://x.example/a.png"},{"type":"text","text":"x","fontType":"SemiBold"}]]`,
		`[[{"type":"divider","thickness":1,"color":"#D6C190"}],[]]`,
		`[[{"type":"text","text":"x","fontType":"semibold","weight":3}]]`,
		`[]`,
	} {
		body := replaceN(withSummary(summary), "ok"+strconv.Itoa(i))
		if r := postSession(t, s, []byte(body)); r.status != 200 {
			t.Errorf("refused: %s\n%s", summary, r.body)
		}
	}
}
