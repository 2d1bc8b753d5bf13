package productsummary_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
	ps "github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

const icon = "https://cdn.example.com/icons/cart.png"

// okLine is a valid line put before the bad one, so that paths show the index.
var okLine = ps.Line{ps.Text{Text: "Total"}, ps.Space{Weight: 1}, ps.Text{Text: "₹10"}}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name string
		line ps.Line
		path string
		msg  string
	}{
		{"nil item", ps.Line{ps.Space{}, nil}, "product_summary[1][1]", "missing item"},
		{"text not UTF-8", ps.Line{ps.Text{Text: "\xff"}}, "product_summary[1][0].text", "valid UTF-8"},
		{"font type not UTF-8", ps.Line{ps.Text{Text: "a", FontType: "bold\xff"}}, "product_summary[1][0].fontType", "valid UTF-8"},
		{"text size NaN", ps.Line{ps.Text{Text: "a", TextSize: math.NaN()}}, "product_summary[1][0].textSize", "must be a finite number"},
		{"text colour without #", ps.Line{ps.Text{Text: "a", Color: "47cc83"}}, "product_summary[1][0].color", `hex colour #RGB, #RRGGBB or #AARRGGBB, got "47cc83"`},
		{"text colour by name", ps.Line{ps.Text{Text: "a", Color: "white"}}, "product_summary[1][0].color", "hex colour"},
		{"text colour of 5 digits", ps.Line{ps.Text{Text: "a", Color: "#12345"}}, "product_summary[1][0].color", "hex colour"},
		{"text colour not hex", ps.Line{ps.Text{Text: "a", Color: "#GGGGGG"}}, "product_summary[1][0].color", "hex colour"},
		{"text size negative", ps.Line{ps.Text{Text: "a", TextSize: -16}}, "product_summary[1][0].textSize", "must be greater than 0"},
		{"space weight negative", ps.Line{ps.Space{Weight: -1}}, "product_summary[1][0].weight", "must be greater than 0"},
		{"space weight infinite", ps.Line{ps.Space{Weight: math.Inf(1)}}, "product_summary[1][0].weight", "must be a finite number"},
		{"space width negative", ps.Line{ps.Space{Width: -20}}, "product_summary[1][0].width", "must be greater than 0"},
		{"space weight NaN", ps.Line{ps.Space{Weight: math.NaN()}}, "product_summary[1][0].weight", "must be a finite number"},
		{"image without url", ps.Line{ps.Image{}}, "product_summary[1][0].url", "required: an absolute http or https URL"},
		{"image url relative", ps.Line{ps.Image{URL: "/icons/a.png"}}, "product_summary[1][0].url", `must be an absolute http or https URL, got "/icons/a.png"`},
		{"image url of another scheme", ps.Line{ps.Image{URL: "ftp://x.example/a.png"}}, "product_summary[1][0].url", "absolute http or https URL"},
		{"image url without host", ps.Line{ps.Image{URL: "https:///a.png"}}, "product_summary[1][0].url", "absolute http or https URL"},
		{"image url unparseable", ps.Line{ps.Image{URL: "https://exa mple.com/a.png"}}, "product_summary[1][0].url", "absolute http or https URL"},
		{"image url not UTF-8, which would be sent changed", ps.Line{ps.Image{URL: "https://x.example/\xff.png"}}, "product_summary[1][0].url", "must be valid UTF-8"},
		{"image size negative", ps.Line{ps.Image{URL: icon, Size: -1}}, "product_summary[1][0].size", "must be greater than 0"},
		{"image size infinite", ps.Line{ps.Image{URL: icon, Size: math.Inf(1)}}, "product_summary[1][0].size", "must be a finite number"},
		{"toggle open icon not a URL", ps.Line{ps.ToggleImage{OpenIcon: "chevron.png"}}, "product_summary[1][0].openIcon", `absolute http or https URL, got "chevron.png", or "" when unused`},
		{"toggle close icon javascript", ps.Line{ps.ToggleImage{OpenIcon: icon, CloseIcon: "javascript:alert(1)"}}, "product_summary[1][0].closeIcon", "absolute http or https URL"},
		{"toggle size negative", ps.Line{ps.ToggleImage{OpenIcon: icon, Size: -18}}, "product_summary[1][0].size", "must be greater than 0"},
		{"divider without thickness", ps.Line{ps.Divider{Color: "#D6C190"}}, "product_summary[1][0].thickness", "required: a number greater than 0"},
		{"divider thickness zero is no thickness", ps.Line{ps.Divider{Thickness: 0}}, "product_summary[1][0].thickness", "required: a number greater than 0"},
		{"divider thickness negative zero is no thickness", ps.Line{ps.Divider{Thickness: math.Copysign(0, -1)}}, "product_summary[1][0].thickness", "required"},
		{"divider thickness negative", ps.Line{ps.Divider{Thickness: -1}}, "product_summary[1][0].thickness", "must be greater than 0"},
		{"divider thickness infinite", ps.Line{ps.Divider{Thickness: math.Inf(1)}}, "product_summary[1][0].thickness", "must be a finite number"},
		{"divider colour bad", ps.Line{ps.Divider{Thickness: 1, Color: "#D6C19"}}, "product_summary[1][0].color", "hex colour"},
		{"background without colour", ps.Line{ps.Space{}, ps.Background{}}, "product_summary[1][1].color", "required: a hex colour"},
		{"background colour bad", ps.Line{ps.Background{Color: "rgb(0,0,0)"}}, "product_summary[1][0].color", "hex colour"},
		{"pointer item checked too", ps.Line{&ps.Text{Text: "a", Color: "red"}}, "product_summary[1][0].color", "hex colour"},
		{"nil pointer item", ps.Line{(*ps.Image)(nil)}, "product_summary[1][0]", "missing item"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ps.Summary{okLine, tc.line}
			wiretest.RequireProblem(t, s.Validate(), tc.path, tc.msg)
			if !encodeRefuses[tc.name] {
				return
			}
			// What cannot be written at all, encoding refuses too, with the
			// same typed problem (json.Marshal passes it through).
			_, err := s.MarshalJSON()
			wiretest.RequireProblem(t, err, tc.path, tc.msg)
			var ve *validation.Error
			_, err = json.Marshal(s)
			require.ErrorAs(t, err, &ve)
		})
	}
}

// encodeRefuses names the rows of TestValidateRejects that MarshalJSON
// refuses as well: a missing item and a number JSON cannot write.
var encodeRefuses = map[string]bool{"nil item": true, "nil pointer item": true, "space weight NaN": true, "image size infinite": true}

func TestValidateAccepts(t *testing.T) {
	s := ps.Summary{
		{ps.Space{}},
		{ps.Space{Weight: 0.7, Width: 20}, ps.Text{Text: "a", Color: "#fff", TextSize: 10, FontType: "SemiBold"}},
		{ps.Text{Text: "b", Color: "#47cc83", FontType: "Bold"}, ps.Text{Text: "c", Color: "#80FFFFFF", FontType: ps.Regular}},
		{ps.Image{URL: "http://x.example/a.png", Size: 350}, ps.Image{URL: "HTTPS://X.example/b.png"}},
		{ps.ToggleImage{OpenIcon: icon, CloseIcon: ""}, ps.ToggleImage{OpenIcon: "", CloseIcon: icon}, ps.ToggleImage{OpenIcon: icon, CloseIcon: icon, Size: 18}},
		{ps.Divider{Thickness: 0.5}},
		{ps.Background{Color: "#000000"}, &ps.Text{Text: "d"}},
		// Numbers left at 0 are not sent, so they are not checked.
		{ps.Space{Weight: 0, Width: 0}, ps.Text{Text: "e", TextSize: 0}, ps.Image{URL: icon, Size: 0}, ps.ToggleImage{OpenIcon: icon, Size: 0}},
	}
	require.NoError(t, s.Validate())
	require.NoError(t, new(ps.Summary).Validate(), "an unset summary is valid: it is not sent")
	require.NoError(t, (*ps.Summary)(nil).Validate(), "a nil *Summary is not sent either")
}

// TestValidateLetsThroughWhatTheServiceTakes: what the service does not
// document as an error passes (issue 11): each of these was refused before.
func TestValidateLetsThroughWhatTheServiceTakes(t *testing.T) {
	for name, l := range map[string]ps.Line{
		"a line with no items":                {},
		"a blank text":                        {ps.Text{Text: "  "}},
		"an empty text":                       {&ps.Text{}},
		"a font type the SDK does not know":   {ps.Text{Text: "a", FontType: "italic"}},
		"an accordion with both icons unused": {ps.ToggleImage{Size: 20}},
	} {
		require.NoError(t, (&ps.Summary{okLine, l}).Validate(), name)
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	s := ps.Summary{
		{ps.Text{Text: "\xff", Color: "red", TextSize: -1}},
		{ps.Image{URL: "x"}},
		{ps.Divider{}, ps.Background{}},
	}
	err := s.Validate()
	var ve *validation.Error
	require.True(t, errors.As(err, &ve))
	paths := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		paths[i] = p.Path
	}
	require.Equal(t, []string{
		"product_summary[0][0].text", // in the order of the item's fields
		"product_summary[0][0].color",
		"product_summary[0][0].textSize",
		"product_summary[1][0].url",
		"product_summary[2][0].thickness",
		"product_summary[2][1].color",
	}, paths)
	require.Contains(t, err.Error(), "product_summary[0][0].text: must be valid UTF-8")
}

func TestValidateQuotesLongValuesShort(t *testing.T) {
	long := "https:/" + strings.Repeat("₹", 100)
	err := (&ps.Summary{{ps.Image{URL: long}, ps.Text{Text: "a", Color: "#\x00\n"}}}).Validate()
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.True(t, strings.HasSuffix(ve.Problems[0].Message, `got "https:/`+strings.Repeat("₹", 33)+`"`),
		"the value is cut to 40 characters, on a rune boundary: %s", ve.Problems[0].Message)
	require.Contains(t, ve.Problems[1].Message, `"#\x00\n"`, "control characters are escaped")
	require.NotContains(t, err.Error(), "\n", "the error stays on one line")
}

func TestIsHexColor(t *testing.T) {
	for c, ok := range map[string]bool{
		"#fff": true, "#FFFFFF": true, "#80ffFFff": true, "#b6a885": true,
		"": false, "#": false, "fff": false, "#ffff": false, "#fffff": false, "#fffffff": false,
		"#ffffffffff": false, "#ggg": false, " #fff": false, "#fff ": false,
	} {
		require.Equal(t, ok, ps.IsHexColor(c), c)
	}
}

// TestProblemPathsNameRealKeys: every path Validate reports names a key the
// item types' json tags spell (a typo in a key written at a rule fails
// here), every field of every kind has a Validate rule (every text field
// one refusing invalid UTF-8), and the decoder
// reads every key the tags spell, reporting a bad value at it.
func TestProblemPathsNameRealKeys(t *testing.T) {
	kinds := []ps.Item{ps.Space{}, ps.Text{}, ps.Image{}, ps.ToggleImage{}, ps.Divider{}, ps.Background{}}
	real := map[string]bool{}
	for _, it := range kinds {
		for f := range reflect.TypeOf(it).Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			real[name] = true
		}
	}
	invalid := ps.Summary{
		{nil, (*ps.Text)(nil)},
		{ps.Space{Weight: -1, Width: math.NaN()}, ps.Space{Weight: math.Inf(1), Width: -2}},
		{ps.Text{Text: "\xff", Color: "red", TextSize: -1, FontType: "\xff"}, ps.Text{TextSize: math.NaN()}},
		{ps.Image{}, ps.Image{URL: "/a.png", Size: -1}, ps.Image{URL: icon, Size: math.Inf(-1)}},
		{ps.ToggleImage{OpenIcon: "x", CloseIcon: "ftp://x.example/", Size: -1}, ps.ToggleImage{Size: math.NaN()}},
		{ps.Divider{}, ps.Divider{Thickness: -1, Color: "#12"}, ps.Divider{Thickness: math.Inf(1)}},
		{ps.Background{}, ps.Background{Color: "blue"}},
	}
	shape := regexp.MustCompile(`^product_summary\[(\d+)\]\[(\d+)\](?:\.(\w+))?$`)
	validated := map[string]bool{}
	var ve *validation.Error
	require.ErrorAs(t, invalid.Validate(), &ve)
	for _, p := range ve.Problems {
		m := shape.FindStringSubmatch(p.Path)
		require.NotNil(t, m, p.Path)
		require.True(t, m[3] == "" || real[m[3]], "path %q names a key no json tag spells", p.Path)
		if i, _ := strconv.Atoi(m[1]); i > 0 {
			j, _ := strconv.Atoi(m[2])
			validated[string(invalid[i][j].Kind())+"."+m[3]] = true
		}
	}
	for _, it := range kinds {
		for f := range reflect.TypeOf(it).Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			require.True(t, validated[string(it.Kind())+"."+key], "no Validate rule at %s.%s", it.Kind(), key)

			if f.Type.Kind() == reflect.String { // text sent as written: invalid UTF-8 refused at its key
				v := reflect.New(reflect.TypeOf(it)).Elem()
				v.FieldByIndex(f.Index).SetString("ok\xff")
				wiretest.RequireProblemAt(t, (&ps.Summary{{v.Interface().(ps.Item)}}).Validate(),
					"product_summary[0][0]."+key, "must be valid UTF-8")
			}

			bad := `true`
			if f.Type.Kind() == reflect.Float64 {
				bad = `"wide"`
			}
			_, err := ps.Parse(`[[{"type":"` + string(it.Kind()) + `","` + key + `":` + bad + `}]]`)
			var de *ps.DecodeError
			require.ErrorAs(t, err, &de)
			require.Equal(t, "product_summary[0][0]."+key, de.Path)
			require.NotContains(t, de.Message, "unknown key")
		}
	}
}
