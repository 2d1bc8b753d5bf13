package productsummary_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	ps "github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want ps.Summary
		out  string // re-encoded text
	}{
		{
			name: "empty line",
			in:   `[[{"type":"space"}]]`,
			want: ps.Summary{{ps.Space{}}},
			out:  `[[{"type":"space"}]]`,
		},
		{
			name: "decimals and integers",
			in:   `[[{"type":"space","weight":0.7,"width":20},{"type":"space","weight":1.0}]]`,
			want: ps.Summary{{ps.Space{Weight: 0.7, Width: 20}, ps.Space{Weight: 1}}},
			out:  `[[{"type":"space","weight":0.7,"width":20},{"type":"space","weight":1}]]`,
		},
		{
			name: "numbers written as strings are read and re-encoded as numbers",
			in:   `[[{"type":"text","text":"Pay","textSize":"18"},{"type":"image","url":"https://x.example/a.png","size":"1.5e1"}]]`,
			want: ps.Summary{{ps.Text{Text: "Pay", TextSize: 18}, ps.Image{URL: "https://x.example/a.png", Size: 15}}},
			out:  `[[{"type":"text","text":"Pay","textSize":18},{"type":"image","url":"https://x.example/a.png","size":15}]]`,
		},
		{
			name: "toggleImage is read as toggleimage",
			in:   `[[{"type":"toggleImage","openIcon":"https://x.example/o.png","closeIcon":"","size":20}]]`,
			want: ps.Summary{{ps.ToggleImage{OpenIcon: "https://x.example/o.png", Size: 20}}},
			out:  `[[{"type":"toggleimage","openIcon":"https://x.example/o.png","closeIcon":"","size":20}]]`,
		},
		{
			name: "fontType casing is kept",
			in:   `[[{"type":"text","text":"a","fontType":"SemiBold"},{"type":"text","text":"b","fontType":"Bold"}]]`,
			want: ps.Summary{{ps.Text{Text: "a", FontType: "SemiBold"}, ps.Text{Text: "b", FontType: "Bold"}}},
			out:  `[[{"type":"text","text":"a","fontType":"SemiBold"},{"type":"text","text":"b","fontType":"Bold"}]]`,
		},
		{
			name: "null means absent",
			in:   `[[{"type":"text","text":"a","color":null,"textSize":null}]]`,
			want: ps.Summary{{ps.Text{Text: "a"}}},
			out:  `[[{"type":"text","text":"a"}]]`,
		},
		{
			name: "required strings absent decode empty and are sent (Validate reports them)",
			in:   `[[{"type":"background"},{"type":"toggleimage"}]]`,
			want: ps.Summary{{ps.Background{}, ps.ToggleImage{}}},
			out:  `[[{"type":"background","color":""},{"type":"toggleimage","openIcon":"","closeIcon":""}]]`,
		},
		{
			name: "divider and background",
			in:   `[[{"type":"divider","thickness":1,"color":"#D6C190"}],[{"type":"background","color":"#faefd9"},{"type":"text","text":"x"}]]`,
			want: ps.Summary{{ps.Divider{Thickness: 1, Color: "#D6C190"}}, {ps.Background{Color: "#faefd9"}, ps.Text{Text: "x"}}},
			out:  `[[{"type":"divider","thickness":1,"color":"#D6C190"}],[{"type":"background","color":"#faefd9"},{"type":"text","text":"x"}]]`,
		},
		{
			name: "the session request's string form",
			in:   strconv.Quote(`[[{"type":"space"}],[{"type":"text","text":"₹7812.5","fontType":"Bold"}]]`),
			want: ps.Summary{{ps.Space{}}, {ps.Text{Text: "₹7812.5", FontType: "Bold"}}},
			out:  `[[{"type":"space"}],[{"type":"text","text":"₹7812.5","fontType":"Bold"}]]`,
		},
		{
			name: "every field of every kind",
			in: `[[{"type":"space","weight":2,"width":12}],` +
				`[{"type":"text","text":"a","color":"#fff","textSize":11,"fontType":"semibold"}],` +
				`[{"type":"image","url":"https://x.example/i.png","size":64}],` +
				`[{"type":"toggleimage","openIcon":"https://x.example/o.png","closeIcon":"https://x.example/c.png","size":18},` +
				`{"type":"toggleImage","openIcon":"","closeIcon":"https://x.example/c.png","size":18}],` +
				`[{"type":"divider","thickness":0.5,"color":"#ccc"}],` +
				`[{"type":"background","color":"#80000000"}]]`,
			want: ps.Summary{
				{ps.Space{Weight: 2, Width: 12}},
				{ps.Text{Text: "a", Color: "#fff", TextSize: 11, FontType: ps.SemiBold}},
				{ps.Image{URL: "https://x.example/i.png", Size: 64}},
				{ps.ToggleImage{OpenIcon: "https://x.example/o.png", CloseIcon: "https://x.example/c.png", Size: 18},
					ps.ToggleImage{CloseIcon: "https://x.example/c.png", Size: 18}},
				{ps.Divider{Thickness: 0.5, Color: "#ccc"}},
				{ps.Background{Color: "#80000000"}},
			},
			out: `[[{"type":"space","weight":2,"width":12}],` +
				`[{"type":"text","text":"a","color":"#fff","textSize":11,"fontType":"semibold"}],` +
				`[{"type":"image","url":"https://x.example/i.png","size":64}],` +
				`[{"type":"toggleimage","openIcon":"https://x.example/o.png","closeIcon":"https://x.example/c.png","size":18},` +
				`{"type":"toggleimage","openIcon":"","closeIcon":"https://x.example/c.png","size":18}],` +
				`[{"type":"divider","thickness":0.5,"color":"#ccc"}],` +
				`[{"type":"background","color":"#80000000"}]]`,
		},
		{
			name: "an empty array",
			in:   ` [] `,
			want: ps.Summary{},
			out:  `[]`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ps.Parse(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			out, err := got.MarshalText()
			require.NoError(t, err)
			require.Equal(t, tc.out, string(out))
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		path       string
		line, item int
		msg        string
	}{
		{"unknown type", `[[{"type":"space"}],[{"type":"space"},{"type":"button","text":"x"}]]`, "product_summary[1][1].type", 1, 1, `unknown item type "button"`},
		{"type in the wrong case", `[[{"type":"Text","text":"x"}]]`, "product_summary[0][0].type", 0, 0, `unknown item type "Text"`},
		{"missing type", `[[{"text":"x"}]]`, "product_summary[0][0].type", 0, 0, "missing item type"},
		{"null type", `[[{"type":null}]]`, "product_summary[0][0].type", 0, 0, "missing item type"},
		{"type not a string", `[[{"type":3}]]`, "product_summary[0][0].type", 0, 0, "item type must be a string"},
		{"unknown key", `[[{"type":"text","text":"x","colour":"#fff"}]]`, "product_summary[0][0].colour", 0, 0, `unknown key "colour" for a text item`},
		{"key in the wrong case", `[[{"type":"text","text":"x","FontType":"bold"}]]`, "product_summary[0][0].FontType", 0, 0, `unknown key "FontType"`},
		{"key of another kind", `[[{"type":"space","size":3}]]`, "product_summary[0][0].size", 0, 0, `unknown key "size" for a space item`},
		{"number not numeric", `[[{"type":"space","weight":"wide"}]]`, "product_summary[0][0].weight", 0, 0, "must be a number"},
		{"NaN string", `[[{"type":"space","weight":"NaN"}]]`, "product_summary[0][0].weight", 0, 0, "must be a number"},
		{"padded numeric string", `[[{"type":"space","width":" 18 "}]]`, "product_summary[0][0].width", 0, 0, "must be a number"},
		{"lone minus", `[[{"type":"space","width":"-"}]]`, "product_summary[0][0].width", 0, 0, "must be a number"},
		{"leading zero", `[[{"type":"space","width":"01"}]]`, "product_summary[0][0].width", 0, 0, "must be a number"},
		{"trailing dot", `[[{"type":"space","width":"1."}]]`, "product_summary[0][0].width", 0, 0, "must be a number"},
		{"bare exponent", `[[{"type":"space","width":"1e+"}]]`, "product_summary[0][0].width", 0, 0, "must be a number"},
		{"plus sign", `[[{"type":"space","width":"+1"}]]`, "product_summary[0][0].width", 0, 0, "must be a number"},
		{"hex string", `[[{"type":"image","url":"https://x.example","size":"0x10"}]]`, "product_summary[0][0].size", 0, 0, "must be a number"},
		{"number out of range", `[[{"type":"divider","thickness":1e999}]]`, "product_summary[0][0].thickness", 0, 0, "number out of range"},
		{"boolean number", `[[{"type":"divider","thickness":true}]]`, "product_summary[0][0].thickness", 0, 0, "must be a number, got a boolean"},
		{"string given a number", `[[{"type":"text","text":42}]]`, "product_summary[0][0].text", 0, 0, "must be a string, got a number"},
		{"empty optional colour", `[[{"type":"text","text":"x","color":""}]]`, "product_summary[0][0].color", 0, 0, "empty string: leave the key out"},
		{"empty optional fontType", `[[{"type":"text","text":"x","fontType":""}]]`, "product_summary[0][0].fontType", 0, 0, "empty string"},
		{"item not an object", `[["space"]]`, "product_summary[0][0]", 0, 0, "an item must be a JSON object, got a string"},
		{"line not an array", `[{"type":"space"}]`, "product_summary[0]", 0, -1, "a line must be a JSON array of items, got an object"},
		{"null line", `[[{"type":"space"}],null]`, "product_summary[1]", 1, -1, "a line must be a JSON array"},
		{"not an array", `{"lines":[]}`, "product_summary", -1, -1, "must be a JSON array of lines, got an object"},
		{"empty input", ``, "product_summary", -1, -1, "must be a JSON array of lines, got nothing"},
		{"broken JSON", `[[{"type":"space"}]`, "product_summary", -1, -1, "not valid JSON"},
		{"string holding a string", strconv.Quote(strconv.Quote(`[]`)), "product_summary", -1, -1, "must be a JSON array of lines, got a string"},
		{"null", `null`, "product_summary", -1, -1, "must be a JSON array of lines, got null: leave product_summary out"},
		{"null with blank space", " null\n", "product_summary", -1, -1, "got null"},
		{"string holding null", `"null"`, "product_summary", -1, -1, "must be a JSON array of lines, got null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ps.Parse(tc.in)
			require.Error(t, err)
			require.Nil(t, s)
			var de *ps.DecodeError
			require.ErrorAs(t, err, &de)
			require.Equal(t, tc.path, de.Path)
			require.Equal(t, tc.line, de.Line)
			require.Equal(t, tc.item, de.Item)
			require.Contains(t, de.Error(), tc.msg)
			require.Contains(t, de.Error(), tc.path)
		})
	}
}

func TestDecodeErrorNamesLineAndItem(t *testing.T) {
	_, err := ps.Parse(`[[{"type":"space"}],[{"type":"space"}],[{"type":"space"},{"type":"toggle"}]]`)
	require.EqualError(t, err, `checkout: decode product summary: product_summary[2][1].type: unknown item type "toggle" `+
		`(want space, text, image, toggleimage, divider or background) (line 2, item 1)`)
}

func TestDecodeErrorUnwraps(t *testing.T) {
	_, err := ps.Parse(`[[{"type":"divider","thickness":1e999}]]`)
	var numErr *strconv.NumError
	require.ErrorAs(t, err, &numErr)
	require.ErrorIs(t, err, strconv.ErrRange)
}

// TestNullSummary: only a JSON null value (the encoding/json convention for
// an absent slice) decodes to no summary; "null" text is an error.
func TestNullSummary(t *testing.T) {
	var body struct {
		Summary ps.Summary `json:"product_summary"`
	}
	body.Summary = *ps.New().EmptyLine()
	require.NoError(t, json.Unmarshal([]byte(`{"product_summary":null}`), &body))
	require.Nil(t, body.Summary)

	var de *ps.DecodeError
	require.ErrorAs(t, json.Unmarshal([]byte(`{"product_summary":"null"}`), &body), &de)
	require.Equal(t, "product_summary", de.Path)

	var s ps.Summary
	require.ErrorAs(t, s.UnmarshalText([]byte(`null`)), &de)
	require.Contains(t, de.Message, "got null")
}

func TestUnmarshalTextWantsTheArray(t *testing.T) {
	var s ps.Summary
	require.NoError(t, s.UnmarshalText([]byte(`[[{"type":"space"}]]`)))
	require.Equal(t, ps.Summary{{ps.Space{}}}, s)

	err := s.UnmarshalText([]byte(strconv.Quote(`[]`)))
	var de *ps.DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, ps.Summary{{ps.Space{}}}, s, "a failed decode leaves the value alone")
}

func TestUnmarshalInsideAStruct(t *testing.T) {
	var body struct {
		Summary ps.Summary `json:"product_summary"`
	}
	err := json.Unmarshal([]byte(`{"product_summary":[[{"type":"space"},{"type":"image","url":"u","oops":1}]]}`), &body)
	var de *ps.DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "product_summary[0][1].oops", de.Path)

	require.NoError(t, json.Unmarshal([]byte(`{"product_summary":"[[{\"type\":\"space\"}]]"}`), &body))
	require.Equal(t, ps.Summary{{ps.Space{}}}, body.Summary)
}

func TestLineAndItemUnmarshal(t *testing.T) {
	var l ps.Line
	require.NoError(t, json.Unmarshal([]byte(`[{"type":"text","text":"a"},{"type":"toggleImage","openIcon":"","closeIcon":"https://x.example/c.png"}]`), &l))
	require.Equal(t, ps.Line{ps.Text{Text: "a"}, ps.ToggleImage{CloseIcon: "https://x.example/c.png"}}, l)

	err := json.Unmarshal([]byte(`[{"type":"space"},{"type":"nope"}]`), &l)
	var de *ps.DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "[1].type", de.Path)

	var txt ps.Text
	require.NoError(t, json.Unmarshal([]byte(`{"type":"text","text":"hi","textSize":"12"}`), &txt))
	require.Equal(t, ps.Text{Text: "hi", TextSize: 12}, txt)

	var img ps.Image
	err = json.Unmarshal([]byte(`{"type":"text","text":"hi"}`), &img)
	require.ErrorAs(t, err, &de)
	require.Contains(t, err.Error(), "item type text cannot be read into a image item")

	var tog ps.ToggleImage
	require.NoError(t, json.Unmarshal([]byte(`{"type":"toggleImage","openIcon":"https://x.example/o.png","closeIcon":""}`), &tog))
	require.Equal(t, "https://x.example/o.png", tog.OpenIcon)

	var sp ps.Space
	var dv ps.Divider
	var bg ps.Background
	require.NoError(t, json.Unmarshal([]byte(`{"type":"space","width":4}`), &sp))
	require.NoError(t, json.Unmarshal([]byte(`{"type":"divider","thickness":2}`), &dv))
	require.NoError(t, json.Unmarshal([]byte(`{"type":"background","color":"#000"}`), &bg))
	require.Equal(t, ps.Space{Width: 4}, sp)
	require.Equal(t, ps.Divider{Thickness: 2}, dv)
	require.Equal(t, ps.Background{Color: "#000"}, bg)
}

func TestDecodeErrorIsNotAValidationError(t *testing.T) {
	_, err := ps.Parse(`[[{"type":"x"}]]`)
	var ve *validation.Error
	require.False(t, errors.As(err, &ve), "decode failures and validation failures are told apart")
}

// TestDecodeNumbersLikeEncodingJSON: a number, bare or written as a string
// (read leniently, as DESIGN.md §2 asks of service JSON), decodes to the
// float64 encoding/json would give and re-encodes as encoding/json writes
// that float64: large integers round as float64 does, and exponents follow
// encoding/json's rule. (0 and -0 are rejected: TestDecodeRejectsZero.)
func TestDecodeNumbersLikeEncodingJSON(t *testing.T) {
	for _, lit := range []string{"0.7", "0.70", "1.0", "-3", "1E2", "1e+2", "1e21", "1e-7", "0.000001",
		"12345678901234567890", "9007199254740993", "123456789012345678000", "1.7976931348623157e308", "5e-324"} {
		var std float64
		require.NoError(t, json.Unmarshal([]byte(lit), &std), lit)
		want, err := json.Marshal(std)
		require.NoError(t, err)
		for _, in := range []string{lit, strconv.Quote(lit)} {
			s, err := ps.Parse(`[[{"type":"space","weight":` + in + `}]]`)
			require.NoError(t, err, in)
			got := s[0][0].(ps.Space).Weight
			require.Equal(t, math.Float64bits(std), math.Float64bits(got), "%s decodes to the same float64", in)
			out, err := s.MarshalText()
			require.NoError(t, err)
			require.Equal(t, `[[{"type":"space","weight":`+string(want)+`}]]`, string(out), in)
		}
	}
}

// TestUnmarshalNilTarget: the Unmarshal methods called on a nil pointer
// return an error instead of panicking.
func TestUnmarshalNilTarget(t *testing.T) {
	var de *ps.DecodeError
	for name, err := range map[string]error{
		"Summary.UnmarshalJSON": (*ps.Summary)(nil).UnmarshalJSON([]byte(`[]`)),
		"Summary.UnmarshalText": (*ps.Summary)(nil).UnmarshalText([]byte(`[]`)),
		"Line":                  (*ps.Line)(nil).UnmarshalJSON([]byte(`[]`)),
		"Space":                 (*ps.Space)(nil).UnmarshalJSON([]byte(`{"type":"space"}`)),
		"Text":                  (*ps.Text)(nil).UnmarshalJSON([]byte(`{"type":"text","text":"a"}`)),
		"Image":                 (*ps.Image)(nil).UnmarshalJSON([]byte(`{"type":"image"}`)),
		"ToggleImage":           (*ps.ToggleImage)(nil).UnmarshalJSON([]byte(`{"type":"toggleimage"}`)),
		"Divider":               (*ps.Divider)(nil).UnmarshalJSON([]byte(`{"type":"divider"}`)),
		"Background":            (*ps.Background)(nil).UnmarshalJSON([]byte(`{"type":"background"}`)),
	} {
		require.ErrorAs(t, err, &de, name)
		require.Contains(t, de.Message, "nil pointer", name)
	}
	require.EqualError(t, (*ps.Text)(nil).UnmarshalJSON(nil), "checkout: decode product summary: text item: nil pointer")
}

// TestDecodeRejectsZero: a number field at 0 is not sent, so an explicit 0 in
// the input (in any spelling, bare or as a string) is a *DecodeError at its
// path instead of a key silently dropped on re-encoding; null and an absent
// key are the unset field.
func TestDecodeRejectsZero(t *testing.T) {
	items := map[string]string{
		"weight":    `{"type":"space","weight":%s}`,
		"width":     `{"type":"space","width":%s}`,
		"textSize":  `{"type":"text","text":"a","textSize":%s}`,
		"size":      `{"type":"image","url":"https://x.example/a.png","size":%s}`,
		"thickness": `{"type":"divider","thickness":%s}`,
	}
	for key, item := range items {
		for _, zero := range []string{"0", "-0", "0.0", "0e5", "-0.000E-3", `"0"`, `"-0"`, `"0.00"`} {
			s, err := ps.Parse(`[[{"type":"space"}],[` + fmt.Sprintf(item, zero) + `]]`)
			require.Nil(t, s)
			var de *ps.DecodeError
			require.ErrorAs(t, err, &de, "%s: %s", key, zero)
			require.Equal(t, "product_summary[1][0]."+key, de.Path)
			require.Equal(t, 1, de.Line)
			require.Equal(t, 0, de.Item)
			require.Contains(t, de.Message, "must be greater than 0, got ")
			if key == "thickness" {
				require.Contains(t, de.Message, "required")
			} else {
				require.Contains(t, de.Message, "leave the key out for the default")
			}
		}
		s, err := ps.Parse(`[[` + fmt.Sprintf(item, "null") + `]]`)
		require.NoError(t, err, "null is the unset field: %s", key)
		out, err := s.MarshalText()
		require.NoError(t, err)
		require.NotContains(t, string(out), `"`+key+`"`, "an unset number is not sent")
	}
	require.EqualError(t, func() error { _, err := ps.Parse(`[[{"type":"space","weight":0}]]`); return err }(),
		"checkout: decode product summary: product_summary[0][0].weight: must be greater than 0, got 0; leave the key out for the default (line 0, item 0)")
	require.EqualError(t, func() error { _, err := ps.Parse(`[[{"type":"divider","thickness":"0"}]]`); return err }(),
		"checkout: decode product summary: product_summary[0][0].thickness: must be greater than 0, got 0 (required: a divider's thickness has no default) (line 0, item 0)")

	var sp ps.Space
	require.ErrorContains(t, json.Unmarshal([]byte(`{"type":"space","width":0}`), &sp), "width: must be greater than 0")
	require.Equal(t, ps.Space{}, sp, "a failed decode leaves the value alone")
	require.NoError(t, json.Unmarshal([]byte(`{"type":"space","width":-2}`), &sp), "a negative number decodes; Validate reports it")
	require.Equal(t, ps.Space{Width: -2}, sp)
}
