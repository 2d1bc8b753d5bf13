package productsummary_test

import (
	"encoding/json"
	"fmt"

	ps "github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

// The three receipts below are also the golden files' inputs
// (testdata/*.json), so the examples and the goldens cannot drift apart.

func retailCart() *ps.Summary {
	const cart = "https://cdn.example.com/icons/cart.png"
	return ps.New().
		Line(ps.Image{URL: cart, Size: 18}, ps.Text{Text: "Your cart", FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "2 items", Color: "#808080"}).
		Divider(1, "#E0E0E0").
		Line(ps.Text{Text: "Cotton T-shirt × 2"}, ps.Space{Weight: 1}, ps.Text{Text: "₹998.00"}).
		Line(ps.Text{Text: "Canvas sneakers"}, ps.Space{Weight: 1}, ps.Text{Text: "₹2,499.00"}).
		Line(ps.Text{Text: "Coupon WELCOME10", Color: "#47cc83", TextSize: 12}, ps.Space{Weight: 1}, ps.Text{Text: "−₹349.70", Color: "#47cc83"}).
		EmptyLine().
		Divider(1, "#E0E0E0").
		Line(ps.Text{Text: "Total", TextSize: 16, FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "₹3,147.30", TextSize: 16, FontType: ps.Bold})
}

func flightTicket() *ps.Summary {
	const (
		plane = "https://cdn.example.com/icons/plane.png"
		down  = "https://cdn.example.com/icons/chevron-down.png"
		up    = "https://cdn.example.com/icons/chevron-up.png"
		white = "#FFFFFF"
	)
	return ps.New().
		EmptyLine().
		Line(ps.Text{Text: "BLR", Color: white, TextSize: 18, FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Image{URL: plane, Size: 20},
			ps.Space{Weight: 0.7}, ps.Text{Text: "CJB", Color: white, TextSize: 18, FontType: ps.Bold}).
		Line(ps.Text{Text: "22:20", Color: white, FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "1 hr 10 mins", Color: white},
			ps.Space{Weight: 0.8}, ps.Text{Text: "23:30", Color: white, FontType: ps.Bold}).
		EmptyLine().
		// The accordion's header: the open icon alone; its close icon is "".
		Line(ps.Text{Text: "Pay", Color: white, TextSize: 20}, ps.Text{Text: "₹4,813.75", Color: "#FEE135", TextSize: 20, FontType: ps.Bold},
			ps.Space{Weight: 1}, ps.Text{Text: "View details", Color: white, TextSize: 20}, ps.ToggleImage{OpenIcon: down, Size: 20}).
		// What the accordion shows once open.
		Line(ps.Text{Text: "Base fare", Color: white}, ps.Space{Weight: 1}, ps.Text{Text: "₹4,200.00", Color: white}).
		Line(ps.Text{Text: "Taxes and fees", Color: white}, ps.Space{Weight: 1}, ps.Text{Text: "₹613.75", Color: white}).
		Line(ps.Space{Weight: 1}, ps.Text{Text: "Hide details", Color: white, TextSize: 20}, ps.ToggleImage{CloseIcon: up, Size: 20})
}

func busTicket() *ps.Summary {
	const (
		bus   = "https://cdn.example.com/icons/bus.png"
		black = "#000000"
		white = "#ffffff"
		grey  = "#808080"
	)
	gold := func(s string) ps.Text { return ps.Text{Text: s, Color: "#b6a885", TextSize: 20, FontType: ps.Bold} }
	edge := ps.Space{Width: 20}
	stretch := ps.Space{Weight: 1}
	return ps.New().
		EmptyLine().
		Line(stretch, ps.Text{Text: "VRL Travels, sleeper", FontType: ps.Bold}, stretch).
		EmptyLine().
		Line(edge, gold("Bangalore"), stretch, ps.Image{URL: bus}, stretch, gold("Tirupati"), edge).
		Line(edge, ps.Text{Text: "21:15", FontType: ps.Bold}, stretch, ps.Text{Text: "04:00", FontType: ps.Bold}, edge).
		Line(edge, ps.Text{Text: "Tue, Apr 25", Color: grey}, stretch, ps.Text{Text: "Wed, Apr 26", Color: grey}, edge).
		EmptyLine().
		ShadedLine(black).
		ShadedLine(black, edge, ps.Text{Text: "Amount: ₹1058", Color: white, FontType: ps.Bold}).
		ShadedLine(black, edge, ps.Text{Text: "(taxes included)", Color: white, TextSize: 10}).
		ShadedLine(black)
}

// printLines prints the validation result and one line of JSON per summary
// line.
func printLines(s *ps.Summary) {
	fmt.Println("valid:", s.Validate() == nil)
	b, err := json.Marshal(s)
	var lines []json.RawMessage
	if err == nil {
		err = json.Unmarshal(b, &lines)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range lines {
		fmt.Println(string(l))
	}
}

// A retail cart: items with prices pushed right by a stretch, a coupon in
// green, dividers, and a bold total.
func ExampleNew_retailCart() {
	printLines(retailCart())
	// Output:
	// valid: true
	// [{"type":"image","url":"https://cdn.example.com/icons/cart.png","size":18},{"type":"text","text":"Your cart","fontType":"bold"},{"type":"space","weight":1},{"type":"text","text":"2 items","color":"#808080"}]
	// [{"type":"divider","thickness":1,"color":"#E0E0E0"}]
	// [{"type":"text","text":"Cotton T-shirt × 2"},{"type":"space","weight":1},{"type":"text","text":"₹998.00"}]
	// [{"type":"text","text":"Canvas sneakers"},{"type":"space","weight":1},{"type":"text","text":"₹2,499.00"}]
	// [{"type":"text","text":"Coupon WELCOME10","color":"#47cc83","textSize":12},{"type":"space","weight":1},{"type":"text","text":"−₹349.70","color":"#47cc83"}]
	// [{"type":"space"}]
	// [{"type":"divider","thickness":1,"color":"#E0E0E0"}]
	// [{"type":"text","text":"Total","textSize":16,"fontType":"bold"},{"type":"space","weight":1},{"type":"text","text":"₹3,147.30","textSize":16,"fontType":"bold"}]
}

// A flight ticket whose fare breakdown is an accordion: the header line ends
// with an open icon, the last line with a close icon, each toggle leaving
// the other icon "" as the spec writes an unused one.
func ExampleNew_flightTicket() {
	printLines(flightTicket())
	// Output:
	// valid: true
	// [{"type":"space"}]
	// [{"type":"text","text":"BLR","color":"#FFFFFF","textSize":18,"fontType":"bold"},{"type":"space","weight":1},{"type":"image","url":"https://cdn.example.com/icons/plane.png","size":20},{"type":"space","weight":0.7},{"type":"text","text":"CJB","color":"#FFFFFF","textSize":18,"fontType":"bold"}]
	// [{"type":"text","text":"22:20","color":"#FFFFFF","fontType":"bold"},{"type":"space","weight":1},{"type":"text","text":"1 hr 10 mins","color":"#FFFFFF"},{"type":"space","weight":0.8},{"type":"text","text":"23:30","color":"#FFFFFF","fontType":"bold"}]
	// [{"type":"space"}]
	// [{"type":"text","text":"Pay","color":"#FFFFFF","textSize":20},{"type":"text","text":"₹4,813.75","color":"#FEE135","textSize":20,"fontType":"bold"},{"type":"space","weight":1},{"type":"text","text":"View details","color":"#FFFFFF","textSize":20},{"type":"toggleimage","openIcon":"https://cdn.example.com/icons/chevron-down.png","closeIcon":"","size":20}]
	// [{"type":"text","text":"Base fare","color":"#FFFFFF"},{"type":"space","weight":1},{"type":"text","text":"₹4,200.00","color":"#FFFFFF"}]
	// [{"type":"text","text":"Taxes and fees","color":"#FFFFFF"},{"type":"space","weight":1},{"type":"text","text":"₹613.75","color":"#FFFFFF"}]
	// [{"type":"space","weight":1},{"type":"text","text":"Hide details","color":"#FFFFFF","textSize":20},{"type":"toggleimage","openIcon":"","closeIcon":"https://cdn.example.com/icons/chevron-up.png","size":20}]
}

// A bus ticket: fixed gaps at the edges, and a fare block on a black
// background made of shaded lines (the empty ones are a space and the
// background).
func ExampleNew_busTicket() {
	printLines(busTicket())
	// Output:
	// valid: true
	// [{"type":"space"}]
	// [{"type":"space","weight":1},{"type":"text","text":"VRL Travels, sleeper","fontType":"bold"},{"type":"space","weight":1}]
	// [{"type":"space"}]
	// [{"type":"space","width":20},{"type":"text","text":"Bangalore","color":"#b6a885","textSize":20,"fontType":"bold"},{"type":"space","weight":1},{"type":"image","url":"https://cdn.example.com/icons/bus.png"},{"type":"space","weight":1},{"type":"text","text":"Tirupati","color":"#b6a885","textSize":20,"fontType":"bold"},{"type":"space","width":20}]
	// [{"type":"space","width":20},{"type":"text","text":"21:15","fontType":"bold"},{"type":"space","weight":1},{"type":"text","text":"04:00","fontType":"bold"},{"type":"space","width":20}]
	// [{"type":"space","width":20},{"type":"text","text":"Tue, Apr 25","color":"#808080"},{"type":"space","weight":1},{"type":"text","text":"Wed, Apr 26","color":"#808080"},{"type":"space","width":20}]
	// [{"type":"space"}]
	// [{"type":"space"},{"type":"background","color":"#000000"}]
	// [{"type":"space","width":20},{"type":"text","text":"Amount: ₹1058","color":"#ffffff","fontType":"bold"},{"type":"background","color":"#000000"}]
	// [{"type":"space","width":20},{"type":"text","text":"(taxes included)","color":"#ffffff","textSize":10},{"type":"background","color":"#000000"}]
	// [{"type":"space"},{"type":"background","color":"#000000"}]
}

// The session request carries the summary as a JSON string; Parse reads
// either form back.
func ExampleSummary_MarshalJSON() {
	s := ps.New().
		Line(ps.Text{Text: "Amount", FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "₹10,000"})
	text, _ := json.Marshal(s)
	field, _ := json.Marshal(string(text)) // what the root client does for "product_summary"
	fmt.Println(string(field))

	back, err := ps.Parse(string(field))
	fmt.Println(len(back), err)
	// Output:
	// "[[{\"type\":\"text\",\"text\":\"Amount\",\"fontType\":\"bold\"},{\"type\":\"space\",\"weight\":1},{\"type\":\"text\",\"text\":\"₹10,000\"}]]"
	// 1 <nil>
}

// Validate names each problem by its JSON path.
func ExampleSummary_Validate() {
	s := ps.New().
		Line(ps.Text{Text: "Total", Color: "blue"}, ps.Space{Weight: -1}).
		Line(ps.Divider{Color: "#D6C190"}, ps.ToggleImage{OpenIcon: "chevron.png"})
	if err := s.Validate(); err != nil {
		for _, p := range err.(*validation.Error).Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// product_summary[0][0].color: must be a hex colour #RGB, #RRGGBB or #AARRGGBB, got "blue"
	// product_summary[0][1].weight: must be greater than 0
	// product_summary[1][0].thickness: required: a number greater than 0
	// product_summary[1][1].openIcon: must be an absolute http or https URL, got "chevron.png", or "" when unused
}

// An unknown item type is a decode error naming the line and the item.
func ExampleParse() {
	_, err := ps.Parse(`[[{"type":"space"}],[{"type":"text","text":"a"},{"type":"button"}]]`)
	fmt.Println(err)
	// Output:
	// checkout: decode product summary: product_summary[1][1].type: unknown item type "button" (want space, text, image, toggleimage, divider or background) (line 1, item 1)
}
