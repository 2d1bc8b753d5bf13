package httpfield

import "testing"

func TestValidName(t *testing.T) {
	for s, want := range map[string]bool{
		"X-Request-Id": true, "x_custom.1": true, "!#$%&'*+-.^_`|~": true, "A": true,
		"": false, "X Header": false, "X:Y": false, "X\r\nY": false, "Ünicode": false,
		"(x)": false, "x@y": false, "\x7f": false, "a/b": false,
	} {
		if got := ValidName(s); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestValidValue(t *testing.T) {
	for s, want := range map[string]bool{
		"": true, "abc 123": true, "tab\there": true, "ünïcode": true, " padded ": true,
		"a\r\nInjected: 1": false, "nul\x00": false, "del\x7f": false, "lf\n": false,
	} {
		if got := ValidValue(s); got != want {
			t.Errorf("ValidValue(%q) = %v, want %v", s, got, want)
		}
	}
}
