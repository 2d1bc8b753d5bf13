package productsummary

// New returns an empty summary to build line by line, like a receipt:
//
//	s := productsummary.New().
//		Line(productsummary.Text{Text: "Cotton T-shirt"}, productsummary.Space{Weight: 1}, productsummary.Text{Text: "₹998.00"}).
//		Divider(1, "#E0E0E0").
//		Line(productsummary.Text{Text: "Total", FontType: productsummary.Bold}, productsummary.Space{Weight: 1}, productsummary.Text{Text: "₹998.00"})
//
// Each method adds its line to the summary it is called on and returns that
// same summary, so s.EmptyLine() on its own line adds an empty line, and
// building a summary of n lines takes time in proportion to n. There is no
// finishing call: the summary is ready to send at every step. Use
// [Summary.Clone] to extend a shared, half-built summary in several ways.
// A nil *Summary is an empty one: its methods start a new summary and
// return it.
func New() *Summary { return new(Summary) }

// add appends l to s, starting a new summary when s is nil.
func (s *Summary) add(l Line) *Summary {
	if s == nil {
		s = new(Summary)
	}
	*s = append(*s, l)
	return s
}

// Line adds a line of items, shown left to right, and returns s. The items
// are copied (a pointer item as the value it points to), so changing them
// afterwards does not change s. A call with no items adds an empty line,
// never a line with no items.
func (s *Summary) Line(items ...Item) *Summary {
	if len(items) == 0 {
		return s.EmptyLine()
	}
	return s.add(Line(items).Clone())
}

// EmptyLine adds an empty line, a single [Space], and returns s.
func (s *Summary) EmptyLine() *Summary {
	return s.add(Line{Space{}})
}

// EmptyLines adds n empty lines, as n calls of EmptyLine would, and returns
// s. n <= 0 adds none.
func (s *Summary) EmptyLines(n int) *Summary {
	if s == nil {
		s = new(Summary)
	}
	for range n {
		s.EmptyLine()
	}
	return s
}

// Divider adds a line holding one [Divider] of the given thickness and
// returns s; color is a hex colour, or "" for the service's default.
func (s *Summary) Divider(thickness float64, color string) *Summary {
	return s.add(Line{Divider{Thickness: thickness, Color: color}})
}

// ShadedLine adds a line of items on a background colour, the items
// followed by a [Background], and returns s. With no items the line is an
// empty line on that background: a [Space] and the background.
func (s *Summary) ShadedLine(color string, items ...Item) *Summary {
	if len(items) == 0 {
		return s.add(Line{Space{}, Background{Color: color}})
	}
	l := make(Line, len(items), len(items)+1)
	for i, it := range items {
		l[i] = concrete(it)
	}
	return s.add(append(l, Background{Color: color}))
}
