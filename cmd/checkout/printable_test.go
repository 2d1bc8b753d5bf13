package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"CHARGED": "CHARGED",
		"வணக்கம் 😀 é € \u200d": "வணக்கம் 😀 é € \u200d", // letters, marks, emoji, a joiner: kept
		"\x1b[2J":                     `\x1b[2J`,
		"a\r\nb\tc":                   `a\r\nb\tc`,
		"\u009b31m":                   `\u009b31m`,
		"\x7f\x00":                    `\x7f\x00`,
		"abc\u202edef\u2066\u2028":    `abc\u202edef\u2066\u2028`,
		"bad \xff\xfe utf-8 \xe2\x82": `bad \xff\xfe utf-8 \xe2\x82`,
		"\ufffd":                      "\ufffd",
	} {
		got := printable(in)
		require.Equal(t, want, got, "%q", in)
		requireNoTerminalControl(t, got)
	}
}

// termWriter escapes every terminal control but the line feed and the
// tab, whatever the command prints.
func TestTermWriter(t *testing.T) {
	var buf bytes.Buffer
	n, err := termWriter{&buf}.Write([]byte("line 1\tok\n\x1b]0;title\x07\u009b\xff\n"))
	require.NoError(t, err)
	require.Equal(t, len("line 1\tok\n\x1b]0;title\x07\u009b\xff\n"), n, "the bytes given, as io.Writer asks")
	require.Equal(t, "line 1\tok\n\\x1b]0;title\\x07\\u009b\\xff\n", buf.String())
}

// terminalJSON keeps JSON valid and of the same meaning, with nothing a
// terminal would act on.
func TestTerminalJSON(t *testing.T) {
	for _, in := range []string{
		`{"a":"` + "x\u009b31m\u202e\u2028y" + `","b":[1, 2.50],"c":"\u001b[2J \"quoted\" \\ back"}`,
		"{\r\n\t\"a\" :\r\n \"b\"\r\n}\r\n",
		`"` + "\xff" + `"`,
		`{"emoji":"😀","tamil":"வணக்கம்"}`,
	} {
		out := terminalJSON([]byte(in))
		requireNoTerminalControl(t, string(out))
		require.True(t, json.Valid(out), "%s", out)
		var want, got any
		require.NoError(t, json.Unmarshal([]byte(in), &want), in)
		require.NoError(t, json.Unmarshal(out, &got))
		require.Equal(t, want, got, "%q -> %s", in, out)
	}
	require.Equal(t, `{"emoji":"😀"}`, string(terminalJSON([]byte(`{"emoji":"😀"}`))), "nothing to escape: unchanged")
}

// Whatever a reply holds, printable leaves no terminal control and no
// byte that is not UTF-8, and terminalJSON keeps valid JSON valid and of
// the same meaning.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{`{"a":"\u001b[2J"}`, "\x1b]0;t\x07", "{\r\n\"a\":\"\u009b\xff\"}", `"\\"`, `[1,"\u202e"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := printable(s)
		requireNoTerminalControl(t, p)
		require.NotContains(t, p, "\n")
		out := terminalJSON([]byte(s))
		if !json.Valid([]byte(s)) {
			return
		}
		requireNoTerminalControl(t, string(out))
		require.True(t, json.Valid(out), "%q -> %q", s, out)
		var want, got any
		require.NoError(t, json.Unmarshal([]byte(s), &want))
		require.NoError(t, json.Unmarshal(out, &got))
		require.Equal(t, want, got, "%q -> %q", s, out)
	})
}
