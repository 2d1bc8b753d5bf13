package clip

import (
	"testing"
	"unicode/utf8"
)

func TestTo(t *testing.T) {
	for _, tt := range []struct {
		s    string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefghij…"},
		{"ab€cd", 3, "ab…"}, // € is 3 bytes: never cut inside it
		{"ab€cd", 5, "ab€…"},
		{"€€", 1, "…"},
		{"", 0, ""},
	} {
		got := To(tt.s, tt.max)
		if got != tt.want || !utf8.ValidString(got) {
			t.Errorf("To(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
	if got := Quote("a\"b€c", 4); got != `"a\"b…"` {
		t.Errorf("Quote = %s", got)
	}
}
