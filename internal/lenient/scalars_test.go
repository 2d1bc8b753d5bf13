package lenient

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"abc"`, "abc"}, {`"Jos\u00e9 \ud83d\ude00"`, "José 😀"}, {`"a\"b\\c\/d"`, `a"b\c/d`}, {`12`, "12"},
		{`-1.50`, "-1.50"}, {`true`, "true"}, {`false`, "false"}, {`null`, ""}, {`{"a":1}`, ""}, {`[1]`, ""},
		{`"FILTERED"`, "FILTERED"}, {`"\u201d"`, "\u201d"}, {`""`, ""},
	} {
		var s String
		require.NoError(t, json.Unmarshal([]byte(tt.in), &s), tt.in)
		require.Equal(t, tt.want, string(s), tt.in)
	}
}

func TestInt(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
	}{
		{`21`, 21}, {`"21"`, 21}, {`" 21 "`, 21}, {`-1`, -1}, {`1.0`, 1}, {`1e2`, 100}, {`"10"`, 10},
		{`1.5`, 0}, {`"x"`, 0}, {`"FILTERED"`, 0}, {`null`, 0}, {`true`, 0}, {`{}`, 0}, {`[]`, 0},
		{`99999999999999999999999`, 0}, {`9223372036854775807`, 9223372036854775807},
	} {
		var n Int
		require.NoError(t, json.Unmarshal([]byte(tt.in), &n), tt.in)
		require.Equal(t, tt.want, int64(n), tt.in)
	}
}

func TestIsNumber(t *testing.T) {
	for _, in := range []string{"0", "-0", "7", "10", "1.5", "-0.01", "1e3", "1E+3", "2.5e-10", "123456789012345678901234567890"} {
		require.True(t, IsNumber(in), in)
	}
	for _, in := range []string{"", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "1.e3", "1x", " 1", "1 ", "NaN", "Inf", "0x10", "1_000"} {
		require.False(t, IsNumber(in), in)
	}
}

type inner struct {
	A String `json:"a"`
	N Int    `json:"n"`
}

func TestObjectAndArray(t *testing.T) {
	var v struct {
		O1 Object[inner] `json:"o1"`
		O2 Object[inner] `json:"o2"`
		O3 Object[inner] `json:"o3"`
		L1 Array[inner]  `json:"l1"`
		L2 Array[inner]  `json:"l2"`
		L3 Array[String] `json:"l3"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"o1":{"a":"x","n":"3"},"o2":"FILTERED","o3":null,
		"l1":["FILTERED",{"a":"y"},null,7,{"n":2}],"l2":"FILTERED","l3":["a",1,null,{}]}`), &v))
	require.True(t, v.O1.Present)
	require.Equal(t, inner{A: "x", N: 3}, v.O1.V)
	require.False(t, v.O2.Present)
	require.False(t, v.O3.Present)
	require.Equal(t, Array[inner]{{A: "y"}, {N: 2}}, v.L1)
	require.Empty(t, v.L2)
	require.Equal(t, Array[String]{"a", "1", ""}, v.L3)
}

func TestSyntaxErrorsStillFail(t *testing.T) {
	var v struct {
		S String `json:"s"`
	}
	require.Error(t, json.Unmarshal([]byte(`{"s":"abc}`), &v))
	require.Error(t, json.Unmarshal([]byte(`{"s":}`), &v))
}

// No input makes a lenient type fail or panic once encoding/json accepts
// the document; strings decode as encoding/json decodes them.
func FuzzLenient(f *testing.F) {
	for _, s := range []string{`"a"`, `12`, `"1e3"`, `null`, `{"a":"b"}`, `["FILTERED",{}]`, `"\ud800"`, `"\u00e9"`, "\"\xff\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		doc := []byte(`{"v":` + in + `}`)
		if !json.Valid(doc) {
			return
		}
		var s struct {
			V String `json:"v"`
		}
		var n struct {
			V Int `json:"v"`
		}
		var o struct {
			V Object[inner] `json:"v"`
		}
		var a struct {
			V Array[inner] `json:"v"`
		}
		for _, dst := range []any{&s, &n, &o, &a} {
			if err := json.Unmarshal(doc, dst); err != nil {
				t.Fatalf("%T rejected %s: %v", dst, in, err)
			}
		}
		var plain struct {
			V *string `json:"v"`
		}
		if json.Unmarshal(doc, &plain) == nil && plain.V != nil && string(s.V) != *plain.V {
			t.Fatalf("String %q differs from encoding/json %q", s.V, *plain.V)
		}
		// IsNumber agrees with encoding/json on what a number is.
		var isJSONNumber bool
		if in != "" && (in[0] == '-' || in[0] >= '0' && in[0] <= '9') && json.Valid([]byte(in)) && strings.TrimSpace(in) == in {
			isJSONNumber = true
		}
		if IsNumber(in) != isJSONNumber {
			t.Fatalf("IsNumber(%q) = %v, encoding/json says %v", in, IsNumber(in), isJSONNumber)
		}
	})
}
