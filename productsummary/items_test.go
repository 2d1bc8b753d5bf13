package productsummary_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	ps "github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

// TestDesignLiterals: the item kinds are written as plain struct literals
// with the spec's fields, as DESIGN.md §4 names them (numbers as untyped
// constants, no pointers), and marshal to the spec's JSON. The builder keeps
// a literal as given.
func TestDesignLiterals(t *testing.T) {
	const u = "https://cdn.example.com/icons/cart.png"
	tests := []struct {
		name string
		item ps.Item
		want string
	}{
		{"divider", ps.Divider{Thickness: 1},
			`{"type":"divider","thickness":1}`},
		{"divider with colour", ps.Divider{Thickness: 0.5, Color: "#D6C190"},
			`{"type":"divider","thickness":0.5,"color":"#D6C190"}`},
		{"text", ps.Text{Text: "Total", TextSize: 16},
			`{"type":"text","text":"Total","textSize":16}`},
		{"text with every field", ps.Text{Text: "Total", Color: "#000", TextSize: 16, FontType: ps.Bold},
			`{"type":"text","text":"Total","color":"#000","textSize":16,"fontType":"bold"}`},
		{"space weight", ps.Space{Weight: 1},
			`{"type":"space","weight":1}`},
		{"space width", ps.Space{Width: 20},
			`{"type":"space","width":20}`},
		{"space default", ps.Space{},
			`{"type":"space"}`},
		{"image", ps.Image{URL: u, Size: 18},
			`{"type":"image","url":"https://cdn.example.com/icons/cart.png","size":18}`},
		{"toggle image", ps.ToggleImage{OpenIcon: u, Size: 20},
			`{"type":"toggleimage","openIcon":"https://cdn.example.com/icons/cart.png","closeIcon":"","size":20}`},
		{"background", ps.Background{Color: "#faefd9"},
			`{"type":"background","color":"#faefd9"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, ps.Summary{{tc.item}}, *ps.New().Line(tc.item))
			got, err := json.Marshal(ps.Summary{{tc.item}})
			require.NoError(t, err)
			require.Equal(t, "[["+tc.want+"]]", string(got), "exact bytes, spec key order")
			require.NoError(t, (&ps.Summary{{tc.item}}).Validate())

			back, err := ps.Parse(string(got))
			require.NoError(t, err)
			require.Equal(t, ps.Summary{{tc.item}}, back, "the literal reads back as written")
		})
	}
}

// TestDesignLiteralsSummary: a whole summary written as literals, as an
// outside caller would, encodes to the array and validates.
func TestDesignLiteralsSummary(t *testing.T) {
	s := ps.Summary{
		{ps.Text{Text: "Total", TextSize: 16, FontType: ps.Bold}, ps.Space{Weight: 1}, ps.Text{Text: "₹1,200.50", TextSize: 16}},
		{ps.Divider{Thickness: 1}},
		{ps.Image{URL: "https://cdn.example.com/i.png", Size: 18}, ps.Space{Width: 20}, ps.Text{Text: "x"}, ps.Background{Color: "#fff"}},
	}
	require.NoError(t, s.Validate())
	out, err := json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, `[[{"type":"text","text":"Total","textSize":16,"fontType":"bold"},{"type":"space","weight":1},{"type":"text","text":"₹1,200.50","textSize":16}],`+
		`[{"type":"divider","thickness":1}],`+
		`[{"type":"image","url":"https://cdn.example.com/i.png","size":18},{"type":"space","width":20},{"type":"text","text":"x"},{"type":"background","color":"#fff"}]]`, string(out))
}

// TestDesignLiteralZeroThickness: a divider literal without a thickness
// (or with Thickness: 0) is reported by Validate at its path, not sent as
// thickness 0.
func TestDesignLiteralZeroThickness(t *testing.T) {
	for _, d := range []ps.Divider{{}, {Thickness: 0, Color: "#000"}} {
		err := (&ps.Summary{{d}}).Validate()
		var ve *validation.Error
		require.ErrorAs(t, err, &ve)
		require.Len(t, ve.Problems, 1)
		require.Equal(t, "product_summary[0][0].thickness", ve.Problems[0].Path)
		require.Equal(t, "required: a number greater than 0", ve.Problems[0].Message)
	}
}

func TestFontType(t *testing.T) {
	for _, tc := range []struct {
		in    ps.FontType
		canon ps.FontType
		ok    bool
	}{
		{"regular", ps.Regular, true},
		{"Bold", ps.Bold, true},
		{"SemiBold", ps.SemiBold, true},
		{"SEMIBOLD", ps.SemiBold, true},
		{"semi-bold", "semi-bold", false},
		{"", "", false},
	} {
		require.Equal(t, tc.canon, tc.in.Canonical(), tc.in)
		require.Equal(t, tc.ok, tc.in.Valid(), tc.in)
	}
}
