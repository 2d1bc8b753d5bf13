package productsummary

import (
	"math"
	"strconv"

	"github.com/payorch/checkout-go/internal/wire"
)

// The encoder writes the JSON by hand: the summary is small, its shape is
// fixed, and the output must equal what encoding/json would write for the
// same values (the fuzz tests check the string and number rules against it).
// Strings are escaped by wire.AppendString, which emi and paymentfilter use
// too (it writes invalid UTF-8 as U+FFFD; Validate reports such text before
// it gets here).

// errNotFinite marks a number JSON cannot carry; the caller adds the path.
type errNotFinite struct{ key string }

// Error names the key; encodeError replaces it with the item's path.
func (e errNotFinite) Error() string { return e.key + ": must be a finite number" }

func (s Space) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"space"`...)
	b, err := appendNum(b, "weight", s.Weight)
	if err != nil {
		return b, err
	}
	if b, err = appendNum(b, "width", s.Width); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func (t Text) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"text","text":`...)
	b = wire.AppendString(b, t.Text)
	b = appendOptString(b, "color", t.Color)
	b, err := appendNum(b, "textSize", t.TextSize)
	if err != nil {
		return b, err
	}
	b = appendOptString(b, "fontType", string(t.FontType))
	return append(b, '}'), nil
}

func (i Image) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"image","url":`...)
	b = wire.AppendString(b, i.URL)
	b, err := appendNum(b, "size", i.Size)
	if err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func (t ToggleImage) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"toggleimage","openIcon":`...)
	b = wire.AppendString(b, t.OpenIcon)
	b = append(b, `,"closeIcon":`...)
	b = wire.AppendString(b, t.CloseIcon)
	b, err := appendNum(b, "size", t.Size)
	if err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func (d Divider) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"divider"`...)
	b, err := appendNum(b, "thickness", d.Thickness)
	if err != nil {
		return b, err
	}
	b = appendOptString(b, "color", d.Color)
	return append(b, '}'), nil
}

func (g Background) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"type":"background","color":`...)
	b = wire.AppendString(b, g.Color)
	return append(b, '}'), nil
}

// appendNum writes ,"key":v unless v is 0 (or -0), which means not sent.
// Keys are our own constants and need no escaping.
func appendNum(b []byte, key string, v float64) ([]byte, error) {
	if v == 0 {
		return b, nil
	}
	return appendFloat(wire.AppendKey(b, key, false), key, v)
}

func appendOptString(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return wire.AppendString(wire.AppendKey(b, key, false), v)
}

// appendFloat formats f exactly as encoding/json does for a float64: the
// shortest representation, in exponent form only below 1e-6 or from 1e21 on.
func appendFloat(b []byte, key string, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, errNotFinite{key: key}
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Turn e-07 into e-7, as encoding/json does.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
