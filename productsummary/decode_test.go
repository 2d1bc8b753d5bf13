package productsummary_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
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
			name: "zero and empty optional values are the unset field",
			in:   `[[{"type":"text","text":"Pay","textSize":0,"color":"","fontType":""},{"type":"space","weight":-0,"width":0.0}]]`,
			want: ps.Summary{{ps.Text{Text: "Pay"}, ps.Space{}}},
			out:  `[[{"type":"text","text":"Pay"},{"type":"space"}]]`,
		},
		{
			name: "keys match in any case, as encoding/json matches them",
			in:   `[[{"Type":"text","TEXT":"a","FontType":"Bold"}]]`,
			want: ps.Summary{{ps.Text{Text: "a", FontType: "Bold"}}},
			out:  `[[{"type":"text","text":"a","fontType":"Bold"}]]`,
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
			out, err := json.Marshal(got)
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
		{"null item", `[[null]]`, "product_summary[0][0].type", 0, 0, "missing item type"},
		{"type not a string", `[[{"type":3}]]`, "product_summary[0][0].type", 0, 0, "item type must be a string"},
		{"unknown key", `[[{"type":"text","text":"x","colour":"#fff"}]]`, "product_summary[0][0].colour", 0, 0, `unknown key "colour" for a text item`},
		{"key of another kind", `[[{"type":"space","size":3}]]`, "product_summary[0][0].size", 0, 0, `unknown key "size" for a space item`},
		{"key of the toggle read as camel case", `[[{"type":"toggleImage","url":"u"}]]`, "product_summary[0][0].url", 0, 0, `unknown key "url" for a toggleimage item`},
		{"number as a string", `[[{"type":"space","weight":"1"}]]`, "product_summary[0][0].weight", 0, 0, "cannot be read from a JSON string"},
		{"number out of range", `[[{"type":"divider","thickness":1e999}]]`, "product_summary[0][0].thickness", 0, 0, "cannot be read from a JSON number 1e999"},
		{"boolean number", `[[{"type":"divider","thickness":true}]]`, "product_summary[0][0].thickness", 0, 0, "cannot be read from a JSON bool"},
		{"string given a number", `[[{"type":"text","text":42}]]`, "product_summary[0][0].text", 0, 0, "cannot be read from a JSON number"},
		{"item not an object", `[["space"]]`, "product_summary[0][0]", 0, 0, "an item must be a JSON object, got string"},
		{"line not an array", `[{"type":"space"}]`, "product_summary[0]", 0, -1, "a line must be a JSON array of items, got object"},
		{"null line", `[[{"type":"space"}],null]`, "product_summary[1]", 1, -1, "a line must be a JSON array of items, got null"},
		{"not an array", `{"lines":[]}`, "product_summary", -1, -1, "must be a JSON array of lines, got object"},
		{"empty input", ``, "product_summary", -1, -1, "not valid JSON"},
		{"broken JSON", `[[{"type":"space"}]`, "product_summary", -1, -1, "not valid JSON"},
		{"string holding a string", strconv.Quote(strconv.Quote(`[]`)), "product_summary", -1, -1, "must be a JSON array of lines, got string"},
		{"null", `null`, "product_summary", -1, -1, "must be a JSON array of lines, got null"},
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
	_, err := ps.Parse(`[[{"type":"space"}]`)
	var syntax *json.SyntaxError
	require.ErrorAs(t, err, &syntax)
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

	_, err := ps.Parse(`null`)
	require.ErrorAs(t, err, &de)
	require.Contains(t, de.Message, "got null")
}

func TestUnmarshalInsideAStruct(t *testing.T) {
	var body struct {
		Summary ps.Summary `json:"product_summary"`
	}
	err := json.Unmarshal([]byte(`{"product_summary":[[{"type":"space"},{"type":"image","url":"u","oops":1}]]}`), &body)
	var de *ps.DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "product_summary[0][1].oops", de.Path)

	require.Equal(t, "product_summary[0][1].oops", de.Path)
	require.NoError(t, json.Unmarshal([]byte(`{"product_summary":"[[{\"type\":\"space\"}]]"}`), &body))
	require.Equal(t, ps.Summary{{ps.Space{}}}, body.Summary)

	before := body.Summary
	require.Error(t, json.Unmarshal([]byte(`{"product_summary":[[{"type":"nope"}]]}`), &body))
	require.Equal(t, before, body.Summary, "a failed decode leaves the value alone")
}

func TestDecodeErrorIsNotAValidationError(t *testing.T) {
	_, err := ps.Parse(`[[{"type":"x"}]]`)
	var ve *validation.Error
	require.False(t, errors.As(err, &ve), "decode failures and validation failures are told apart")
}

// TestDecodeNumbersLikeEncodingJSON: a number decodes to the float64
// encoding/json would give and re-encodes as encoding/json writes that
// float64: large integers round as float64 does, and exponents follow
// encoding/json's rule.
func TestDecodeNumbersLikeEncodingJSON(t *testing.T) {
	for _, lit := range []string{"0.7", "0.70", "1.0", "-3", "1E2", "1e+2", "1e21", "1e-7", "0.000001",
		"12345678901234567890", "9007199254740993", "123456789012345678000", "1.7976931348623157e308", "5e-324"} {
		var std float64
		require.NoError(t, json.Unmarshal([]byte(lit), &std), lit)
		want, err := json.Marshal(std)
		require.NoError(t, err)
		s, err := ps.Parse(`[[{"type":"space","weight":` + lit + `}]]`)
		require.NoError(t, err, lit)
		got := s[0][0].(ps.Space).Weight
		require.Equal(t, math.Float64bits(std), math.Float64bits(got), "%s decodes to the same float64", lit)
		out, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, `[[{"type":"space","weight":`+string(want)+`}]]`, string(out), lit)
	}
}

// TestUnmarshalNilTarget: UnmarshalJSON called on a nil pointer returns an
// error instead of panicking.
func TestUnmarshalNilTarget(t *testing.T) {
	require.EqualError(t, (*ps.Summary)(nil).UnmarshalJSON([]byte(`[]`)), "checkout: decode product summary: Summary: nil pointer")
}

// TestDecodeZeroIsUnset: a number at 0 is not sent, so an explicit 0 (or
// null) in the input decodes to the unset field, is not sent again, and a
// divider's thickness left so is reported by Validate.
func TestDecodeZeroIsUnset(t *testing.T) {
	items := map[string]string{
		"weight":    `{"type":"space","weight":%s}`,
		"width":     `{"type":"space","width":%s}`,
		"textSize":  `{"type":"text","text":"a","textSize":%s}`,
		"size":      `{"type":"image","url":"https://x.example/a.png","size":%s}`,
		"thickness": `{"type":"divider","thickness":%s}`,
	}
	for key, item := range items {
		for _, zero := range []string{"0", "-0", "0.0", "0e5", "-0.000E-3", "null"} {
			s, err := ps.Parse(`[[{"type":"space"}],[` + fmt.Sprintf(item, zero) + `]]`)
			require.NoError(t, err, "%s: %s", key, zero)
			out, err := json.Marshal(s)
			require.NoError(t, err)
			require.NotContains(t, string(out), `"`+key+`"`, "an unset number is not sent")
			if key == "thickness" {
				wiretest.RequireProblem(t, s.Validate(), "product_summary[1][0].thickness", "required")
			}
		}
	}
}

// decodeSeeds have the shapes of the published samples (written here, not
// copied): both toggle spellings, an unused icon as "", fontType casings,
// decimals and integers, width spaces, backgrounds first and last, a
// divider, the session request's string form, and some broken inputs.
var decodeSeeds = []string{
	`[[{"type":"space"}]]`,
	`[[{"type":"image","url":"https://a.example/w.png"},{"type":"text","text":"Amount to pay"},{"type":"text","text":"₹1000","fontType":"bold"},` +
		`{"type":"image","url":"https://a.example/d.png","size":10},{"type":"text","text":"Saved ₹500","color":"#47cc83"},{"type":"space","weight":1.0},` +
		`{"type":"toggleimage","openIcon":"https://a.example/down.png","closeIcon":"https://a.example/up.png","size":18}]]`,
	`[[{"type":"space"}],[{"type":"text","text":"Pay","textSize":20,"color":"#FFFFFF"},{"type":"space","weight":0.7},` +
		`{"type":"toggleImage","openIcon":"https://a.example/c.png","closeIcon":"","size":20}],[{"type":"image","url":"https://a.example/i.png","size":350}]]`,
	`[[{"type":"space","width":20},{"type":"text","text":"Bangalore","fontType":"bold","color":"#b6a885","textSize":20},{"type":"space","width":1.0}],` +
		`[{"type":"space"},{"type":"background","color":"#000000"}]]`,
	`"[[{\"type\":\"text\",\"text\":\"Amount :\",\"color\":\"#032146\",\"fontType\" : \"bold\"},{\"type\":\"space\",\"weight\":1}],` +
		`[{\"type\":\"divider\",\"thickness\":1,\"color\":\"#D6C190\"}],[{\"type\":\"background\",\"color\":\"#faefd9\"},{\"type\":\"text\",\"text\":\"x\",\"fontType\":\"SemiBold\"}]]"`,
	`[[{"type":"space","weight":"1.5","width":null}]]`,
	`[[{"type":"text","text":"a","FontType":"bold"}]]`,
	`[[{"type":"unknown"}]]`,
	`[[]]`,
	`[null]`,
	`[[{"type":"divider","thickness":1e999}]]`,
	`[[{"type":"space"}]`,
	`{}`,
	`""`,
	``,
}

// FuzzDecode: no input makes the decoder panic; whatever decodes also
// encodes, validates without panicking, and reads back to the same summary.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ps.Parse(in)
		if err != nil {
			require.Nil(t, s)
			var de *ps.DecodeError
			require.ErrorAs(t, err, &de)
			return
		}
		_ = s.Validate()

		out, err := json.Marshal(s)
		require.NoError(t, err, "a decoded summary always encodes")
		require.True(t, json.Valid(out), "%s", out)
		back, err := ps.Parse(string(out))
		require.NoError(t, err, "%s", out)
		if len(s) == 0 {
			require.Empty(t, back)
			return
		}
		require.Equal(t, s, back)
		again, err := json.Marshal(back)
		require.NoError(t, err)
		require.Equal(t, string(out), string(again), "encoding is stable")

		// The session request's string form of the same array reads the same.
		if tr := bytes.TrimSpace([]byte(in)); len(tr) > 0 && tr[0] == '[' {
			quoted, _ := json.Marshal(in)
			viaString, err := ps.Parse(string(quoted))
			if err == nil {
				require.Equal(t, s, viaString)
			}
		}
	})
}
