package recipes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cycloLimit is the complexity above which a function's doc comment must
// say why it branches that much.
const cycloLimit = 15

// whyMarker opens the paragraph of a doc comment that says why a function
// is above cycloLimit (CONTRIBUTING.md, "Habits").
const whyMarker = "It branches"

// TestComplexFunctionsSayWhy walks every non-test Go file of the module and
// fails, with file:line and the figure, for each function whose cyclomatic
// complexity (measured as gocyclo does) is above cycloLimit and whose doc
// comment has no paragraph starting with whyMarker.
func TestComplexFunctionsSayWhy(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			checked++
			c := complexity(fn)
			if c > cycloLimit && !saysWhy(fn.Doc) {
				pos := fset.Position(fn.Pos())
				rel, _ := filepath.Rel(root, pos.Filename)
				t.Errorf("%s:%d: %s has complexity %d (> %d): split it, or open a paragraph of its doc comment with %q saying why its cases belong together",
					rel, pos.Line, funcName(fn), c, cycloLimit, whyMarker)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d functions found under %s: the walk missed the module", checked, root)
	}
}

// complexity is gocyclo's measure: 1, plus one for each if, for, range,
// non-default case or comm clause, && and || in the function, the
// function literals it holds included.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// saysWhy reports whether a paragraph of doc starts with whyMarker.
func saysWhy(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, para := range strings.Split(doc.Text(), "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), whyMarker) {
			return true
		}
	}
	return false
}

// funcName is fn's name as gocyclo prints it: (Recv).Name or Name.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	var recv string
	switch t := fn.Recv.List[0].Type.(type) {
	case *ast.StarExpr:
		if id, ok := typeIdent(t.X); ok {
			recv = "*" + id
		}
	default:
		recv, _ = typeIdent(t)
	}
	return "(" + recv + ")." + fn.Name.Name
}

// typeIdent is the name of a receiver's type, its type parameters left out.
func typeIdent(e ast.Expr) (string, bool) {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name, true
	case *ast.IndexExpr:
		return typeIdent(t.X)
	case *ast.IndexListExpr:
		return typeIdent(t.X)
	}
	return "", false
}

// TestComplexityCountsAsGocyclo checks complexity on a function holding one
// of each thing gocyclo counts, and a default of each kind it does not.
func TestComplexityCountsAsGocyclo(t *testing.T) {
	const src = `package p

func f(a, b bool, xs []int, ch chan int) {
	if a && b || a { // if, &&, ||: 3
	}
	for i := 0; i < 1; i++ { // 1
	}
	for range xs { // 1
	}
	switch { // two cases, and a default that does not count: 2
	case a:
	case b:
	default:
	}
	select { // one comm clause, and a default: 1
	case <-ch:
	default:
	}
	_ = func() {
		if b { // a function literal's count is its function's: 1
		}
	}
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := complexity(f.Decls[0].(*ast.FuncDecl)), 10; got != want {
		t.Errorf("complexity = %d, want %d (1 + 3 + 1 + 1 + 2 + 1 + 1)", got, want)
	}
}
