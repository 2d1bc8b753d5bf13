package webhook

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCredentialsComparedInConstantTimeBothParts pins what no request can
// show without timing it (spec §5.3, DESIGN §5): checkCredentials compares
// the username and the password digests with subtle.ConstantTimeCompare,
// both in one expression joined by a non-short-circuit '&', before any
// return, so a wrong username, a malformed header or a missing one cost the
// same work as a wrong password; and it never compares the received
// credentials with == or !=. A refactor that breaks any of these fails here.
func TestCredentialsComparedInConstantTimeBothParts(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "verifier.go", nil, 0)
	require.NoError(t, err)
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "checkCredentials" {
			fn = fd
		}
	}
	require.NotNil(t, fn, "checkCredentials not found in verifier.go")

	isCTC := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "subtle" && sel.Sel.Name == "ConstantTimeCompare"
	}

	// Find the top-level statement holding the '&' of two compares.
	compareAt := -1
	ctcCalls := 0
	for i, stmt := range fn.Body.List {
		ast.Inspect(stmt, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if isCTC(x) {
					ctcCalls++
				}
			case *ast.BinaryExpr:
				switch x.Op {
				case token.AND:
					if isCTC(x.X) && isCTC(x.Y) {
						compareAt = i
					}
				case token.LAND, token.LOR:
					t.Errorf("%s: short-circuit %s in checkCredentials", fset.Position(x.Pos()), x.Op)
				case token.EQL, token.NEQ:
					for _, side := range []ast.Expr{x.X, x.Y} {
						if id, ok := ast.Unparen(side).(*ast.Ident); ok && (id.Name == "user" || id.Name == "pass") {
							t.Errorf("%s: %s compared with %s", fset.Position(x.Pos()), id.Name, x.Op)
						}
					}
				}
			}
			return true
		})
	}
	require.Equal(t, 2, ctcCalls, "one constant-time compare per credential part")
	require.GreaterOrEqual(t, compareAt, 0, "the two compares are not joined by '&' in one expression")
	for i, stmt := range fn.Body.List[:compareAt] {
		ast.Inspect(stmt, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok {
				t.Errorf("statement %d returns (%s) before both parts are compared", i, fset.Position(r.Pos()))
			}
			return true
		})
	}
}
