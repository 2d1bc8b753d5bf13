package productsummary_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	ps "github.com/payorch/checkout-go/productsummary"
	"github.com/payorch/checkout-go/validation"
)

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

		out, err := s.MarshalText()
		require.NoError(t, err, "a decoded summary always encodes")
		require.True(t, json.Valid(out), "%s", out)
		back, err := ps.Parse(string(out))
		require.NoError(t, err, "%s", out)
		if len(s) == 0 {
			require.Empty(t, back)
			return
		}
		require.Equal(t, s, back)
		again, err := back.MarshalText()
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
			_, err := json.Marshal(ps.Space{Weight: n})
			var ve *validation.Error
			require.ErrorAs(t, err, &ve)
			return
		}
		requireNumberAsEncodingJSON(t, n)
	})
}
