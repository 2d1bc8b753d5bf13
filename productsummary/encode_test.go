package productsummary_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
	ps "github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

func TestMarshalItems(t *testing.T) {
	tests := []struct {
		name string
		item ps.Item
		want string
	}{
		{"space default", ps.Space{}, `{"type":"space"}`},
		{"space weight and width", ps.Space{Weight: 1, Width: 20}, `{"type":"space","weight":1,"width":20}`},
		{"space weight zero is not sent", ps.Space{Weight: 0}, `{"type":"space"}`},
		{"negative zero is zero", ps.Space{Width: math.Copysign(0, -1)}, `{"type":"space"}`},
		{"negative numbers are sent (Validate reports them)", ps.Image{URL: "u", Size: -2}, `{"type":"image","url":"u","size":-2}`},
		{"text minimal", ps.Text{Text: "Pay"}, `{"type":"text","text":"Pay"}`},
		{"text full, spec key order", ps.Text{FontType: ps.SemiBold, TextSize: 10, Color: "#000000", Text: "Bonus"},
			`{"type":"text","text":"Bonus","color":"#000000","textSize":10,"fontType":"semibold"}`},
		{"text empty is still sent", ps.Text{}, `{"type":"text","text":""}`},
		{"text escaping as encoding/json", ps.Text{Text: "a\"b\\c<d>&\n\u2028₹"}, `{"type":"text","text":"a\"b\\c\u003cd\u003e\u0026\n\u2028₹"}`},
		{"image", ps.Image{URL: "https://x.example/i.png?a=1&b=2", Size: 18}, `{"type":"image","url":"https://x.example/i.png?a=1\u0026b=2","size":18}`},
		{"toggle with an unused icon", ps.ToggleImage{OpenIcon: "https://x.example/o.png"}, `{"type":"toggleimage","openIcon":"https://x.example/o.png","closeIcon":""}`},
		{"divider", ps.Divider{Thickness: 0.5, Color: "#D6C190"}, `{"type":"divider","thickness":0.5,"color":"#D6C190"}`},
		{"divider without thickness leaves it out (Validate reports it)", ps.Divider{}, `{"type":"divider"}`},
		{"background", ps.Background{Color: "#faefd9"}, `{"type":"background","color":"#faefd9"}`},
		{"pointer to an item", &ps.Background{Color: "#000"}, `{"type":"background","color":"#000"}`},
		{"large and tiny numbers as encoding/json writes them", ps.Space{Weight: 1e21, Width: 1e-7}, `{"type":"space","weight":1e+21,"width":1e-7}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line, err := json.Marshal(ps.Line{tc.item})
			require.NoError(t, err)
			require.Equal(t, "["+tc.want+"]", string(line))

			alone, err := json.Marshal(tc.item)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(alone))
		})
	}
}

// TestMarshalMatchesEncodingJSON checks strings and numbers inside items
// against encoding/json writing the same values on their own.
func TestMarshalMatchesEncodingJSON(t *testing.T) {
	texts := []string{"", "plain", "₹ 813.75", "<b>&amp;</b>", "tab\there", "\x00\x1f\x7f", "bad \xff utf8", "line\u2029sep", `quote " and \ slash`}
	nums := []float64{0, math.Copysign(0, -1), 1, 0.7, -0.7, -3, 123456789, 1e15, 1<<53 + 1, 12345678901234567890,
		123456789012345678000, 1e20, 1e21, -1e21, 1.5e300, 1e-6, 9.99999e-7, 1e-7, -1e-7, 0.1 + 0.2,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	for _, s := range texts {
		requireTextAsEncodingJSON(t, s)
	}
	for _, f := range nums {
		requireNumberAsEncodingJSON(t, f)
	}
}

// requireTextAsEncodingJSON checks that a Text holding s writes it as
// encoding/json writes s on its own.
func requireTextAsEncodingJSON(t testing.TB, s string) {
	t.Helper()
	got, err := json.Marshal(ps.Text{Text: s})
	require.NoError(t, err)
	str, err := json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, `{"type":"text","text":`+string(str)+`}`, string(got), "text %q", s)
}

// requireNumberAsEncodingJSON checks that a Space of weight n, a finite
// number, writes it as encoding/json writes n on its own, and leaves 0 and
// -0 out (not sent).
func requireNumberAsEncodingJSON(t testing.TB, n float64) {
	t.Helper()
	got, err := json.Marshal(ps.Space{Weight: n})
	require.NoError(t, err)
	if n == 0 {
		require.Equal(t, `{"type":"space"}`, string(got), "0 and -0 are not sent")
		return
	}
	num, err := json.Marshal(n)
	require.NoError(t, err)
	require.Equal(t, `{"type":"space","weight":`+string(num)+`}`, string(got), "number %v", n)
}

func TestMarshalTextEqualsMarshalJSON(t *testing.T) {
	s := ps.Summary{{ps.Space{}}, {ps.Text{Text: "a & b"}, ps.Space{Weight: 1}, ps.Text{Text: "₹1"}}}
	text, err := s.MarshalText()
	require.NoError(t, err)
	js, err := json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, `[[{"type":"space"}],[{"type":"text","text":"a \u0026 b"},{"type":"space","weight":1},{"type":"text","text":"₹1"}]]`, string(text))
	require.Equal(t, string(text), string(js))

	// Inside a struct the summary is the array; the session request (root
	// package) sends the MarshalText form as a string instead.
	body, err := json.Marshal(struct {
		S ps.Summary `json:"product_summary"`
	}{s[:1]})
	require.NoError(t, err)
	require.Equal(t, `{"product_summary":[[{"type":"space"}]]}`, string(body))
}

func TestMarshalEmpty(t *testing.T) {
	for _, s := range []ps.Summary{nil, {}} {
		b, err := s.MarshalText()
		require.NoError(t, err)
		require.Equal(t, "[]", string(b))
	}
}

func TestMarshalErrors(t *testing.T) {
	tests := []struct {
		name string
		s    ps.Summary
		path string
		msg  string
	}{
		{"nil item", ps.Summary{{ps.Space{}}, {ps.Text{Text: "a"}, nil}}, "product_summary[1][1]", "missing item"},
		{"nil pointer item", ps.Summary{{(*ps.Text)(nil)}}, "product_summary[0][0]", "missing item"},
		{"NaN", ps.Summary{{ps.Space{Weight: math.NaN()}}}, "product_summary[0][0].weight", "must be a finite number"},
		{"infinity", ps.Summary{{ps.Image{URL: "https://x.example", Size: math.Inf(1)}}}, "product_summary[0][0].size", "must be a finite number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.s.MarshalText()
			wiretest.RequireProblem(t, err, tc.path, tc.msg)

			var ve *validation.Error
			_, err = json.Marshal(tc.s)
			require.ErrorAs(t, err, &ve, "json.Marshal passes the typed error through")

			// Validate reports the same problem before anything is encoded.
			verr := tc.s.Validate()
			require.ErrorAs(t, verr, &ve)
			require.True(t, ve.Has(tc.path), "%v", verr)
		})
	}
	_, err := json.Marshal(ps.Divider{Thickness: math.Inf(-1)})
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "thickness", ve.Problems[0].Path)
}

func TestClone(t *testing.T) {
	sp := &ps.Space{Weight: 1}
	orig := ps.Summary{{ps.Text{Text: "a", TextSize: 10}, sp, nil}}
	c := orig.Clone()
	want := ps.Summary{{ps.Text{Text: "a", TextSize: 10}, ps.Space{Weight: 1}, nil}}
	require.Equal(t, want, *c, "pointers to items become values")
	sp.Weight = 99 // the original's pointed-to item changes; the clone does not
	(*c)[0][0] = ps.Space{}
	require.Equal(t, ps.Summary{{ps.Space{}, ps.Space{Weight: 1}, nil}}, *c)
	require.Equal(t, ps.Text{Text: "a", TextSize: 10}, orig[0][0])
	require.Nil(t, (*ps.Summary)(nil).Clone())
}

func TestKindsAndPointerItems(t *testing.T) {
	items := []ps.Item{ps.Space{}, ps.Text{Text: "a"}, ps.Image{URL: icon}, ps.ToggleImage{OpenIcon: icon}, ps.Divider{Thickness: 1}, ps.Background{Color: "#fff"}}
	ptrs := []ps.Item{&ps.Space{}, &ps.Text{Text: "a"}, &ps.Image{URL: icon}, &ps.ToggleImage{OpenIcon: icon}, &ps.Divider{Thickness: 1}, &ps.Background{Color: "#fff"}}
	nils := []ps.Item{(*ps.Space)(nil), (*ps.Text)(nil), (*ps.Image)(nil), (*ps.ToggleImage)(nil), (*ps.Divider)(nil), (*ps.Background)(nil)}
	kinds := []ps.Kind{ps.KindSpace, ps.KindText, ps.KindImage, ps.KindToggleImage, ps.KindDivider, ps.KindBackground}
	for i, k := range kinds {
		require.Equal(t, k, items[i].Kind())
		require.Equal(t, k, ptrs[i].Kind())

		byValue, err := ps.Summary{{items[i]}}.MarshalText()
		require.NoError(t, err)
		byPointer, err := ps.Summary{{ptrs[i]}}.MarshalText()
		require.NoError(t, err)
		require.Equal(t, string(byValue), string(byPointer))
		require.Contains(t, string(byValue), `"type":"`+string(k)+`"`)
		require.NoError(t, (&ps.Summary{{ptrs[i]}}).Validate())

		err = (&ps.Summary{{nils[i]}}).Validate()
		var ve *validation.Error
		require.ErrorAs(t, err, &ve, k)
		require.Equal(t, "product_summary[0][0]", ve.Problems[0].Path)
		_, err = ps.Summary{{nils[i]}}.MarshalText()
		require.ErrorAs(t, err, &ve, k)
	}
}
