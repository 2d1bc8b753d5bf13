package productsummary_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/conformance"
	"github.com/payorch/checkout-go/productsummary"
)

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

			s, err := productsummary.Parse(text)
			require.NoError(t, err)
			require.NotEmpty(t, s)
			require.NoError(t, s.Validate(), "the service's own samples are valid")

			out, err := s.MarshalText()
			require.NoError(t, err)
			viaJSON, err := json.Marshal(s)
			require.NoError(t, err)
			require.Equal(t, string(out), string(viaJSON), "json.Marshal gives the same array as MarshalText")

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
			again, err := productsummary.Parse(string(quoted))
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
		ProductSummary productsummary.Summary `json:"product_summary"`
	}
	require.NoError(t, json.Unmarshal(samples[0].Data, &body))
	s := body.ProductSummary
	require.Len(t, s, 9)
	// fontType casings are kept as written.
	require.Equal(t, productsummary.FontType("bold"), s[0][0].(productsummary.Text).FontType)
	require.Equal(t, productsummary.FontType("Bold"), s[0][2].(productsummary.Text).FontType)
	require.Equal(t, productsummary.FontType("SemiBold"), s[1][0].(productsummary.Text).FontType)
	require.Equal(t, productsummary.Divider{Thickness: 1, Color: "#D6C190"}, s[5][0])
	require.Equal(t, productsummary.Background{Color: "#faefd9"}, s[8][0])
	require.Equal(t, productsummary.Line{productsummary.Space{}}, s[2], "an empty line is one space item")
}

// TestConformanceToggleSpellings checks both spellings of the accordion type
// the samples use decode to ToggleImage, including an unused icon as "".
func TestConformanceToggleSpellings(t *testing.T) {
	for _, tc := range []struct {
		file      string
		line, idx int
		want      productsummary.ToggleImage
	}{
		{"product_summary_case1_toggleimage_lowercase_and_images.json", 0, 7, productsummary.ToggleImage{
			OpenIcon:  "https://assets.juspay.in/hyper/images/internalPP/ic_arrow_down.png",
			CloseIcon: "https://assets.juspay.in/hyper/images/internalPP/ic_arrow_up.png",
			Size:      18,
		}},
		{"product_summary_case2_toggleImage_camelcase_flight.json", 6, 4, productsummary.ToggleImage{
			OpenIcon:  "https://upload.wikimedia.org/wikipedia/commons/9/96/Chevron-icon-drop-down-menu-WHITE.png",
			CloseIcon: "",
			Size:      20,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			sm := conformance.Files(t, "product_summary", tc.file)[0]
			s, err := productsummary.Parse(string(sm.Data))
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
