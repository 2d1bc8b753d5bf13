package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// What the command prints from a reply (the service's, or a fake's, which
// may run anywhere) is text another party chose: an escape sequence in it
// could clear the terminal, rewrite what was printed, set the window title
// or, on some terminals, feed input back. printable escapes it in each
// value printed, newlines included, so no value can forge a line either;
// termWriter, around the command's whole output, escapes whatever a value
// printed some other way still carries; terminalJSON keeps JSON output
// valid JSON of the same meaning.

// terminalControl reports whether r, printed, could act on a terminal or
// reorder the text around it: the C0 controls (ESC, CR, BS…), DEL, the C1
// controls (U+009B is CSI on some terminals), the line and paragraph
// separators and the bidirectional controls ("Trojan Source").
func terminalControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeRune writes r as Go writes it in a quoted string: \n, \x1b, \u009b.
func escapeRune(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
		return
	case '\r':
		b.WriteString(`\r`)
		return
	case '\t':
		b.WriteString(`\t`)
		return
	}
	if r < 0x80 {
		fmt.Fprintf(b, `\x%02x`, r)
		return
	}
	fmt.Fprintf(b, `\u%04x`, r)
}

// printable is s with every terminal control (see terminalControl) and
// every byte that is not UTF-8 written as an escape (\x1b, \n, \xff);
// other text, non-ASCII letters included, is kept as it is.
func printable(s string) string {
	return escape(s, func(r rune) bool { return terminalControl(r) })
}

// escape is s with the runes for which bad is true, and the bytes that are
// not UTF-8, written as escapes.
func escape(s string, bad func(rune) bool) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || bad(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case bad(r):
			escapeRune(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// termWriter writes to w what the command prints, with every terminal
// control but the line feed and the tab, and every byte that is not UTF-8,
// escaped: the last guard, behind printable, for every command.
type termWriter struct{ w io.Writer }

func (t termWriter) Write(p []byte) (int, error) {
	s := escape(string(p), func(r rune) bool { return r != '\n' && r != '\t' && terminalControl(r) })
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// terminalJSON is JSON text b made safe to print and still JSON of the
// same meaning: in strings, a terminal control is written as a \u escape
// and a byte that is not UTF-8 as \ufffd (as encoding/json reads it);
// between values, whitespace other than space, tab and line feed is
// dropped.
func terminalJSON(b []byte) []byte {
	var out strings.Builder
	inString, escaped := false, false
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			if inString {
				out.WriteString(`\ufffd`)
			}
			escaped = false
			continue
		case !inString && r != ' ' && r != '\t' && r != '\n' && terminalControl(r):
			continue
		case inString && terminalControl(r):
			fmt.Fprintf(&out, `\u%04x`, r)
			escaped = false
			continue
		case escaped:
			escaped = false
		case r == '\\' && inString:
			escaped = true
		case r == '"':
			inString = !inString
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}
