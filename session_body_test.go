package checkout

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAFieldAddedIsDeclared (issue 36.1): a maintainer adds a field the way
// anyone would, one tagged line, and the promises hold with nothing else
// changed. The test copies the module's library code into a temporary
// folder, adds `Nickname string` (tagged nickname) to SessionRequest and
// OrderRequest there, drops in the tests of addedFieldTests, and runs go
// test on the copy: invalid UTF-8 in the new field is refused, an Extra key
// it writes is refused, the session decoder reads the key into the field,
// and package lint advises against the key in Extra while the field is
// empty. No list of keys or fields had to learn of it.
func TestAFieldAddedIsDeclared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the package")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the copy with")
	}
	dir := t.TempDir()
	copyLibrary(t, ".", dir)
	addLine(t, filepath.Join(dir, "session.go"), "\tDescription string `json:\"description,omitempty\"`\n",
		"\t// Nickname is the customer's nickname (nickname).\n\tNickname string `json:\"nickname,omitempty\"`\n")
	addLine(t, filepath.Join(dir, "orders.go"), "\tDescription string `url:\"description,omitempty\"`\n",
		"\t// Nickname is the customer's nickname (nickname).\n\tNickname string `url:\"nickname,omitempty\"`\n")
	for name, src := range addedFieldTests {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-run", "TestNickname", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go test on the copy with the field added:\n%s", out)
	require.Contains(t, string(out), "ok", "%s", out)
}

// copyLibrary copies go.mod, go.sum and every non-test Go file of the
// module at src to dst, leaving out folders with a module of their own.
func copyLibrary(t *testing.T, src, dst string) {
	t.Helper()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dst, f), data, 0o644))
	}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if _, mod := os.Stat(filepath.Join(path, "go.mod")); path != src && (mod == nil || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	require.NoError(t, err)
}

// addLine inserts line after the one line of file that is after.
func addLine(t *testing.T, file, after, line string) {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(data), after), "%s has the line to add after", file)
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(data), after, after+line, 1)), 0o644))
}

// addedFieldTests are the tests run on the copy with the field added: one
// in package checkout, one beside it that uses package lint.
var addedFieldTests = map[string]string{
	"nickname_test.go": `package checkout

import (
	"encoding/json"
	"strings"
	"testing"
)

func nicknameSession() *SessionRequest {
	return &SessionRequest{OrderID: "o1", Amount: "1.00", CustomerID: "c1", CustomerPhone: "9876543210",
		PaymentPageClientID: "shop", Action: PaymentPage, Nickname: "Asha"}
}

// problemAt fails unless err has a problem at path whose message holds want.
func problemAt(t *testing.T, err error, path, want string) {
	t.Helper()
	ve, ok := err.(*ValidationError)
	if !ok {
		t.Fatalf("want a *ValidationError at %s, got %v", path, err)
	}
	for _, p := range ve.Problems {
		if p.Path == path && strings.Contains(p.Message, want) {
			return
		}
	}
	t.Fatalf("no problem at %s holding %q in %v", path, want, err)
}

func TestNicknameSession(t *testing.T) {
	r := nicknameSession()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(r)
	if err != nil || strings.Count(string(body), "\"nickname\":\"Asha\"") != 1 {
		t.Fatalf("the body carries the field once: %s %v", body, err)
	}
	var back SessionRequest
	if err := json.Unmarshal(body, &back); err != nil || back.Nickname != "Asha" || back.Extra != nil {
		t.Fatalf("the decoder reads the key into the field: %+v %v", back, err)
	}

	r.Nickname = "caf\xe9"
	problemAt(t, r.Validate(), "nickname", "not valid UTF-8")
	if _, err := json.Marshal(r); err == nil {
		t.Fatal("MarshalJSON sends caf\\ufffd")
	}

	r.Nickname = "Asha"
	r.Extra = map[string]any{"nickname": "x"}
	problemAt(t, r.Validate(), "nickname", "typed field")
	if body, err := json.Marshal(r); err == nil {
		t.Fatalf("the body carries the key twice: %s", body)
	}
}

func TestNicknameOrder(t *testing.T) {
	r := &OrderRequest{OrderID: "o1", Amount: "1.00", Nickname: "Asha"}
	form, err := r.Values()
	if err != nil || form["nickname"][0] != "Asha" || len(form["nickname"]) != 1 {
		t.Fatalf("the form carries the field once: %v %v", form, err)
	}
	r.Nickname = "caf\xe9"
	problemAt(t, r.Validate(), "nickname", "not valid UTF-8")
	r.Nickname = "Asha"
	r.Extra = map[string]string{"nickname": "x"}
	problemAt(t, r.Validate(), "nickname", "typed field")
}
`,
	"nickname_lint_test.go": `package checkout_test

import (
	"testing"

	"github.com/payorch/checkout-go"
	"github.com/payorch/checkout-go/lint"
)

func TestNicknameLint(t *testing.T) {
	r := &checkout.SessionRequest{OrderID: "o1", Amount: "1.00", CustomerID: "c1", CustomerPhone: "9876543210",
		CustomerEmail: "a@shop.example", PaymentPageClientID: "shop", Action: checkout.PaymentPage,
		Extra: map[string]any{"nickname": "x"}}
	if err := r.Validate(); err != nil {
		t.Fatal("the field is empty: the key is sent once, from Extra:", err)
	}
	advice := lint.Check(r)
	if len(advice) != 1 || advice[0].Path != "nickname" {
		t.Fatalf("want the advice to set the field, got %v", advice)
	}
}
`,
}
