package jsontext

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// What encoding/json repaired is told from what was written as is: a bad
// byte, a real U+FFFD, and the escaped text "\ufffd".
func TestRepaired(t *testing.T) {
	for s, want := range map[string]bool{
		"caf\xe9": true, "ok": false, "\ufffd": false, `\ufffd`: false, `a\` + "\xff": true, "": false,
	} {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, want, Repaired(b), "%q written as %s", s, b)
	}
}

// Members visits each member in order with its repair, nested values
// included, and stops at what is not an object.
func TestMembers(t *testing.T) {
	b, err := json.Marshal(struct {
		A string            `json:"a"`
		B map[string]string `json:"b"`
		C []string          `json:"c"`
	}{"x", map[string]string{"k": "v\xff"}, []string{"ok"}})
	require.NoError(t, err)
	var got []string
	Members(b, func(k string, repaired bool) {
		if repaired {
			k += "!"
		}
		got = append(got, k)
	})
	require.Equal(t, []string{"a", "b!", "c"}, got)
	for _, bad := range []string{`[]`, `"a"`, ``, `{"a":`} {
		n := 0
		Members([]byte(bad), func(string, bool) { n++ })
		require.Zero(t, n, bad)
	}
}
