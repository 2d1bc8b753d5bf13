package productsummary

// New returns an empty summary to build line by line, like a receipt. Each
// method adds its line to the summary it is called on and returns it, so
// calls chain and a call on its own line is not lost; the summary is ready
// to send at every step. A nil *Summary's methods start a new one. Use
// [Summary.Clone] to extend a shared, half-built summary in several ways.
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
// are copied (a pointer item as its value); no items add an empty line.
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

// EmptyLines adds n empty lines (none for n <= 0) and returns s.
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

// ShadedLine adds a line of items followed by a [Background] of color, and
// returns s. With no items it is an empty line on that background.
func (s *Summary) ShadedLine(color string, items ...Item) *Summary {
	if len(items) == 0 {
		return s.add(Line{Space{}, Background{Color: color}})
	}
	return s.add(append(Line(items).Clone(), Background{Color: color}))
}
