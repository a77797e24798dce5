package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// packageStateVars lists the package-level variables of the non-test Go
// files in dir that hold state: every var except an error sentinel (a
// value made by errors.New or fmt.Errorf). Commands keep their
// options in their constructors' closures and what a run shares in a
// value made per invocation (app, runSession), never in the package.
func packageStateVars(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var bad []string
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if len(vs.Values) == len(vs.Names) && isErrorSentinel(vs.Values[i]) {
						continue
					}
					bad = append(bad, fset.Position(n.Pos()).String()+": "+n.Name)
				}
			}
		}
	}
	return bad
}

// isErrorSentinel reports whether e is errors.New(...) or fmt.Errorf(...).
func isErrorSentinel(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}

// The front end holds no hidden state: no package-level var in cmd/lbplus
// but error sentinels.
func TestNoPackageState(t *testing.T) {
	assert.Empty(t, packageStateVars(t, "."), "package-level state in cmd/lbplus")
}

// The check finds each kind of package-level state, and lets sentinels by.
func TestPackageStateVarsFindsState(t *testing.T) {
	dir := t.TempDir()
	src := `package main

import (
	"errors"
	"fmt"
)

var errGone = errors.New("gone")
var errWrapped = fmt.Errorf("wrapped: %w", errGone)
var flags struct{ on bool }
var (
	table = map[string]int{"a": 1}
	count int
)
var a, b = errors.New("a"), errors.New("b")
var made = newThing()

func newThing() int { return 1 }
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package main\n\nvar inTests = 1\n"), 0o644))
	var names []string
	for _, b := range packageStateVars(t, dir) {
		names = append(names, b[strings.LastIndex(b, " ")+1:])
	}
	assert.Equal(t, []string{"flags", "table", "count", "made"}, names)
}
