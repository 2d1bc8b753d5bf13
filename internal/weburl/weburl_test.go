package weburl

import "testing"

func TestRead(t *testing.T) {
	for s, want := range map[string]Facts{
		"":                               {},
		"/return":                        {},
		"ftp://shop.example/":            {},
		"https://shop.example/r":         {Absolute: true, Secure: true},
		"http://shop.example/r":          {Absolute: true},
		"http://LOCALHOST:8080/hook":     {Absolute: true, Secure: true},
		"http://127.0.0.2/hook":          {Absolute: true, Secure: true},
		"http://[::1]/hook":              {Absolute: true, Secure: true},
		"https://u:p@shop.example/":      {Absolute: true, User: true, Secure: true},
		"http://localhost.evil.example/": {Absolute: true},
	} {
		if got := Read(s); got != want {
			t.Errorf("Read(%q) = %+v, want %+v", s, got, want)
		}
	}
}
