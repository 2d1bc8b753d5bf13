package productsummary

// Builder assembles a Summary line by line, like a receipt. It is an
// immutable value: every method returns a new Builder and leaves its receiver
// unchanged, so a half-built summary can be shared and extended in several
// directions. Items passed in are copied, and Summary returns a deep copy, so
// nothing is shared between a Builder, its callers and what it produced.
// The zero value is an empty Builder, ready to use, and a Builder is safe
// for concurrent use.
type Builder struct {
	lines []Line
}

// New returns an empty Builder.
func New() Builder { return Builder{} }

// with returns a Builder holding b's lines plus l, never writing into b's
// backing array.
func (b Builder) with(l Line) Builder {
	lines := make([]Line, len(b.lines), len(b.lines)+1)
	copy(lines, b.lines)
	return Builder{lines: append(lines, l)}
}

// Line adds a line of items, left to right. A call with no items adds an
// empty line (one space item), never a line with no items.
func (b Builder) Line(items ...Item) Builder {
	if len(items) == 0 {
		return b.EmptyLine()
	}
	return b.with(Line(items).Clone())
}

// EmptyLine adds an empty line: a single space item (spec §2.6).
func (b Builder) EmptyLine() Builder {
	return b.with(Line{Space{}})
}

// EmptyLines adds n empty lines, as n calls of EmptyLine would. n <= 0
// adds no line and is not an error: EmptyLines(0) and EmptyLines(-3) return
// a Builder equal to b. (The Builder records no errors of its own: what it
// is given is kept and Validate reports it, and a count of zero or below
// leaves nothing to keep.)
func (b Builder) EmptyLines(n int) Builder {
	for range n {
		b = b.EmptyLine()
	}
	return b
}

// Divider adds a line holding one divider of the given thickness; color is a
// hex colour, or "" to leave "color" out (spec §2.6).
func (b Builder) Divider(thickness float64, color string) Builder {
	return b.with(Line{Rule(thickness).WithColor(color)})
}

// ShadedLine adds a line of items on a background colour: the items followed
// by a background item (spec §2.6). With no items the line is an empty line
// on that background: a space item and the background.
func (b Builder) ShadedLine(color string, items ...Item) Builder {
	if len(items) == 0 {
		return b.with(Line{Space{}, Backdrop(color)})
	}
	l := make(Line, 0, len(items)+1)
	l = append(l, Line(items).Clone()...)
	return b.with(append(l, Backdrop(color)))
}

// Len returns the number of lines added so far.
func (b Builder) Len() int { return len(b.lines) }

// Summary returns the lines built so far as a new Summary, sharing nothing
// with the Builder. An empty Builder gives a nil Summary (not sent).
func (b Builder) Summary() Summary {
	if len(b.lines) == 0 {
		return nil
	}
	return Summary(b.lines).Clone()
}

// Item constructors. Each returns a value; the With… methods return a
// modified copy and leave the receiver unchanged.

// Label returns a "text" item showing text.
func Label(text string) Text { return Text{Text: text} }

// WithColor returns t with "color" set to a hex colour ("" leaves it out).
func (t Text) WithColor(color string) Text {
	t.Color = color
	return t
}

// WithSize returns t with "textSize" set (0 leaves it out).
func (t Text) WithSize(size float64) Text {
	t.TextSize = size
	return t
}

// WithFont returns t with "fontType" set ("" leaves it out).
func (t Text) WithFont(f FontType) Text {
	t.FontType = f
	return t
}

// Bold returns t with "fontType" "bold".
func (t Text) Bold() Text { return t.WithFont(Bold) }

// SemiBold returns t with "fontType" "semibold".
func (t Text) SemiBold() Text { return t.WithFont(SemiBold) }

// Regular returns t with "fontType" "regular".
func (t Text) Regular() Text { return t.WithFont(Regular) }

// Picture returns an "image" item showing the image at url.
func Picture(url string) Image { return Image{URL: url} }

// WithSize returns i with "size" set (0 leaves it out).
func (i Image) WithSize(size float64) Image {
	i.Size = size
	return i
}

// Spacer returns a "space" item with neither weight nor width: the service's
// default gap of 5px, or on its own an empty line (spec §2.6, §8).
func Spacer() Space { return Space{} }

// Stretch returns a "space" item with "weight" set: it takes a share of the
// free width, pushing the items after it to the right. Stretch(0) has no
// weight: it is Spacer().
func Stretch(weight float64) Space { return Space{Weight: weight} }

// Gap returns a "space" item with a fixed "width". Gap(0) has no width: it
// is Spacer().
func Gap(width float64) Space { return Space{Width: width} }

// Toggle returns a "toggleimage" item, the accordion control, with both icon
// URLs (spec §2.6).
func Toggle(openIcon, closeIcon string) ToggleImage {
	return ToggleImage{OpenIcon: openIcon, CloseIcon: closeIcon}
}

// OpenIcon returns a "toggleimage" item that only opens the accordion: its
// "closeIcon" is the empty string, as the spec writes an unused icon.
func OpenIcon(url string) ToggleImage { return ToggleImage{OpenIcon: url} }

// CloseIcon returns a "toggleimage" item that only closes the accordion: its
// "openIcon" is the empty string.
func CloseIcon(url string) ToggleImage { return ToggleImage{CloseIcon: url} }

// WithSize returns t with "size" set (0 leaves it out).
func (t ToggleImage) WithSize(size float64) ToggleImage {
	t.Size = size
	return t
}

// Rule returns a "divider" item of the given "thickness". Rule(0) has no
// thickness, which Validate reports as required.
func Rule(thickness float64) Divider { return Divider{Thickness: thickness} }

// WithColor returns d with "color" set to a hex colour ("" leaves it out).
func (d Divider) WithColor(color string) Divider {
	d.Color = color
	return d
}

// Backdrop returns a "background" item: the colour of the line it is on.
func Backdrop(color string) Background { return Background{Color: color} }
