package productsummary_test

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
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
			got, err := json.Marshal(ps.Summary{{tc.item}})
			require.NoError(t, err)
			require.Equal(t, "[["+tc.want+"]]", string(got))
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
	got, err := json.Marshal(ps.Summary{{ps.Text{Text: s}}})
	require.NoError(t, err)
	str, err := json.Marshal(s)
	require.NoError(t, err)
	require.Equal(t, `[[{"type":"text","text":`+string(str)+`}]]`, string(got), "text %q", s)
}

// requireNumberAsEncodingJSON checks that a Space of weight n, a finite
// number, writes it as encoding/json writes n on its own, and leaves 0 and
// -0 out (not sent).
func requireNumberAsEncodingJSON(t testing.TB, n float64) {
	t.Helper()
	got, err := json.Marshal(ps.Summary{{ps.Space{Weight: n}}})
	require.NoError(t, err)
	if n == 0 {
		require.Equal(t, `[[{"type":"space"}]]`, string(got), "0 and -0 are not sent")
		return
	}
	num, err := json.Marshal(n)
	require.NoError(t, err)
	require.Equal(t, `[[{"type":"space","weight":`+string(num)+`}]]`, string(got), "number %v", n)
}

// TestMarshalInsideAStruct: inside a struct the summary is the array; the
// session request (root package) sends that text as a string instead.
func TestMarshalInsideAStruct(t *testing.T) {
	s := ps.Summary{{ps.Space{}}, {ps.Text{Text: "a & b"}, ps.Space{Weight: 1}, ps.Text{Text: "₹1"}}}
	body, err := json.Marshal(struct {
		S ps.Summary `json:"product_summary"`
	}{s})
	require.NoError(t, err)
	require.Equal(t, `{"product_summary":[[{"type":"space"}],[{"type":"text","text":"a \u0026 b"},{"type":"space","weight":1},{"type":"text","text":"₹1"}]]}`, string(body))
}

func TestMarshalEmpty(t *testing.T) {
	for _, s := range []ps.Summary{nil, {}} {
		b, err := s.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, "[]", string(b))
	}
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

		byValue, err := json.Marshal(ps.Summary{{items[i]}})
		require.NoError(t, err)
		byPointer, err := json.Marshal(ps.Summary{{ptrs[i]}})
		require.NoError(t, err)
		require.Equal(t, string(byValue), string(byPointer))
		require.Contains(t, string(byValue), `"type":"`+string(k)+`"`)
		require.NoError(t, (&ps.Summary{{ptrs[i]}}).Validate())

		err = (&ps.Summary{{nils[i]}}).Validate()
		var ve *validation.Error
		require.ErrorAs(t, err, &ve, k)
		require.Equal(t, "product_summary[0][0]", ve.Problems[0].Path)
		_, err = json.Marshal(ps.Summary{{nils[i]}})
		require.ErrorAs(t, err, &ve, k)
	}
}

// TestConformanceRoundTrip decodes every published product summary and
// checks that re-encoding gives the same JSON tree, key order aside, after
// the one documented normalisation (type "toggleImage" is written
// "toggleimage"). Numbers compare as float64, so 1.0 and 1 are equal.
func TestConformanceRoundTrip(t *testing.T) {
	samples := conformance.Files(t, "product_summary", "*.json")
	require.Len(t, samples, 4, "expected the three summaries and the session body")
	for _, sm := range samples {
		t.Run(sm.Name, func(t *testing.T) {
			require.True(t, sm.ValidJSON())
			var text string
			if strings.HasSuffix(sm.Name, ".body.json") {
				var body map[string]any
				require.NoError(t, json.Unmarshal(sm.Data, &body))
				s, ok := body["product_summary"].(string)
				require.True(t, ok, "product_summary is carried as a JSON string")
				text = s
			} else {
				text = string(sm.Data)
			}

			s, err := ps.Parse(text)
			require.NoError(t, err)
			require.NotEmpty(t, s)
			require.NoError(t, s.Validate(), "the service's own samples are valid")

			out, err := json.Marshal(s)
			require.NoError(t, err)

			var want, got any
			require.NoError(t, json.Unmarshal([]byte(text), &want))
			require.NoError(t, json.Unmarshal(out, &got))
			normaliseToggle(want)
			require.Equal(t, want, got)
			require.Equal(t, keySet(want), keySet(got), "no key is added, dropped or changes case")
			require.NotContains(t, string(out), `"toggleImage"`)

			// The session request's form, a JSON string holding the array,
			// reads back to the same summary.
			quoted, err := json.Marshal(string(out))
			require.NoError(t, err)
			again, err := ps.Parse(string(quoted))
			require.NoError(t, err)
			require.Equal(t, s, again)
		})
	}
}

// TestConformanceSessionBodyField decodes the session body straight into a
// struct: Summary.UnmarshalJSON accepts the string form.
func TestConformanceSessionBodyField(t *testing.T) {
	samples := conformance.Files(t, "product_summary", "session_request_product_summary.body.json")
	var body struct {
		ProductSummary ps.Summary `json:"product_summary"`
	}
	require.NoError(t, json.Unmarshal(samples[0].Data, &body))
	s := body.ProductSummary
	require.Len(t, s, 9)
	// fontType casings are kept as written.
	require.Equal(t, ps.FontType("bold"), s[0][0].(ps.Text).FontType)
	require.Equal(t, ps.FontType("Bold"), s[0][2].(ps.Text).FontType)
	require.Equal(t, ps.FontType("SemiBold"), s[1][0].(ps.Text).FontType)
	require.Equal(t, ps.Divider{Thickness: 1, Color: "#D6C190"}, s[5][0])
	require.Equal(t, ps.Background{Color: "#faefd9"}, s[8][0])
	require.Equal(t, ps.Line{ps.Space{}}, s[2], "an empty line is one space item")
}

// TestConformanceToggleSpellings checks both spellings of the accordion type
// the samples use decode to ToggleImage, including an unused icon as "".
func TestConformanceToggleSpellings(t *testing.T) {
	for _, tc := range []struct {
		file      string
		line, idx int
		want      ps.ToggleImage
	}{
		{"product_summary_case1_toggleimage_lowercase_and_images.json", 0, 7, ps.ToggleImage{
			OpenIcon:  "https://assets.juspay.in/hyper/images/internalPP/ic_arrow_down.png",
			CloseIcon: "https://assets.juspay.in/hyper/images/internalPP/ic_arrow_up.png",
			Size:      18,
		}},
		{"product_summary_case2_toggleImage_camelcase_flight.json", 6, 4, ps.ToggleImage{
			OpenIcon:  "https://upload.wikimedia.org/wikipedia/commons/9/96/Chevron-icon-drop-down-menu-WHITE.png",
			CloseIcon: "",
			Size:      20,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			sm := conformance.Files(t, "product_summary", tc.file)[0]
			s, err := ps.Parse(string(sm.Data))
			require.NoError(t, err)
			require.Equal(t, tc.want, s[tc.line][tc.idx])
		})
	}
}

func normaliseToggle(v any) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			normaliseToggle(e)
		}
	case map[string]any:
		if v["type"] == "toggleImage" {
			v["type"] = "toggleimage"
		}
		for _, e := range v {
			normaliseToggle(e)
		}
	}
}

// keySet lists every object key in the tree, sorted, with duplicates.
func keySet(v any) []string {
	var keys []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				keys = append(keys, k)
				walk(v[k])
			}
		}
	}
	walk(v)
	slices.Sort(keys)
	return keys
}

// FuzzEncode: an item writes strings and numbers exactly as
// encoding/json does; a number at 0 (or -0) is not sent.
func FuzzEncode(f *testing.F) {
	f.Add("₹ 813.75", 0.7)
	f.Add("<b>\"q\"</b> & \\", 1e21)
	f.Add("\x00\x1f\u2028\u2029\xff\xfe", 1e-7)
	f.Add("", math.Copysign(0, -1))
	f.Add("tab\tnew\nline", 123456789.125)
	f.Fuzz(func(t *testing.T, s string, n float64) {
		requireTextAsEncodingJSON(t, s)
		if math.IsNaN(n) || math.IsInf(n, 0) {
			_, err := json.Marshal(ps.Summary{{ps.Space{Weight: n}}})
			var ve *validation.Error
			require.ErrorAs(t, err, &ve)
			return
		}
		requireNumberAsEncodingJSON(t, n)
	})
}
