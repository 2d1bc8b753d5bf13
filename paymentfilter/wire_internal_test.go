package paymentfilter

import (
	"encoding/json"
	"testing"
)

// FuzzAppendString: the encoder writes strings exactly as encoding/json does.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\s`, "<a>&", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é世界🙂", "\b\f\n\r\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
