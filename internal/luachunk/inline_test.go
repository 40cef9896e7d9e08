package luachunk

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/parse"
)

// root is the module's directory, from this package's.
const root = "../.."

// maxInline is the most lines a Lua script may have inline in a Go test:
// one, read at a glance where it stands; a longer script is a chunk of a
// file of testdata.
const maxInline = 1

// generated are the scripts that stay inline because the test builds them
// where they stand, by the test file and the function or declaration that
// holds them, each with its reason.
var generated = map[string]string{
	"dsl/scenario/exprfuzz_test.go:pageScenario": "wraps the fuzzer's text as a scenario's page rule: the script is the fuzzer's input",
}

// fmtVerb is a verb of fmt in a template: a script built with Sprintf is
// read with each verb as a number, which Lua reads wherever the verb could
// stand.
var fmtVerb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z]`)

// TestNoLuaScriptInline scans every _test.go file of the module for string
// literals (and sums of them) that are Lua scripts of more than maxInline
// lines: each must be a chunk of testdata, read with Read or Src, unless
// generated lists it with why it cannot be.
func TestNoLuaScriptInline(t *testing.T) {
	found := map[string]bool{}
	scanned := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, "_test.go") {
			return nil
		}
		scanned++
		rel, _ := filepath.Rel(root, path)
		for _, s := range luaScripts(t, path) {
			key := filepath.ToSlash(rel) + ":" + s.holder
			if _, ok := generated[key]; ok {
				found[key] = true
				continue
			}
			t.Errorf("%s:%d: a Lua script of %d lines inline in %s: move it to a chunk file of testdata (internal/luachunk), or, if the test generates it, list %q in generated with why", filepath.ToSlash(rel), s.line, s.lines, s.holder, key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("scanned %d test files from %s, want the module's", scanned, root)
	}
	for key := range generated {
		if !found[key] {
			t.Errorf("generated lists %s, which holds no inline Lua script now: drop it", key)
		}
	}
}

// script is a Lua script inline in a Go file.
type script struct {
	holder string // the function or declaration that holds it
	line   int    // its line in the Go file
	lines  int    // its lines
}

// luaScripts returns the Lua scripts of more than maxInline lines in the
// string literals of a Go file: a literal, or a sum of literals and other
// strings (read as empty), whose text, fmt's verbs read as numbers, the
// Lua parser reads as a chunk.
func luaScripts(t *testing.T, path string) []script {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []script
	for _, decl := range f.Decls {
		holder := declName(decl)
		ast.Inspect(decl, func(n ast.Node) bool {
			var text string
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.ADD {
					return true
				}
				var ok bool
				if text, ok = sum(n); !ok {
					return true
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return false
				}
				text, _ = strconv.Unquote(n.Value)
			default:
				return true
			}
			if lines := strings.Count(strings.TrimSpace(text), "\n") + 1; lines > maxInline && isLua(text) {
				out = append(out, script{holder, fset.Position(n.Pos()).Line, lines})
			}
			return false
		})
	}
	return out
}

// sum returns the text of a sum of strings, the literals' text and the
// rest empty, and whether any of its terms is a literal.
func sum(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, _ := strconv.Unquote(e.Value)
		return s, true
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, okx := sum(e.X)
		y, oky := sum(e.Y)
		return x + y, okx || oky
	case *ast.ParenExpr:
		return sum(e.X)
	}
	return "", false
}

// isLua reports whether text is a Lua chunk of at least one statement.
func isLua(text string) bool {
	chunk, err := parse.Parse(strings.NewReader(fmtVerb.ReplaceAllString(text, "1")), "inline.lua")
	return err == nil && len(chunk) > 0
}

// declName names a top-level declaration: a function by its name (a
// method by its receiver's type too), a const or var by its first name.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			typ := d.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				return id.Name + "." + d.Name.Name
			}
		}
		return d.Name.Name
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			if v, ok := spec.(*ast.ValueSpec); ok && len(v.Names) > 0 {
				return v.Names[0].Name
			}
		}
	}
	return "?"
}

// The scan finds a script inline, alone, in a sum or as a template of
// Sprintf, whichever function holds it, and leaves alone the texts of
// more than one line that are not Lua (a message, JSON, a policy) and the
// scripts of one line.
func TestScanFindsInlineScripts(t *testing.T) {
	src := "package x\n\n" +
		"const header = `scenario { id = \"t\" }`\n\n" +
		"const long = `scenario { id = \"t\" }\nat(1, function() say(\"x\") end)\n`\n\n" +
		"func TestA(t *testing.T) {\n" +
		"\t_ = header + `\nfunction on_minute(row)\n  set { shed = 0.5 }\nend\n`\n" +
		"\t_ = fmt.Sprintf(\"local x = %d\\nat(%[1]d, function() end)\", 3)\n" +
		"\t_ = \"x.lua:3:4: at(): sensor offline\\n 3 |   error()\\n   |   ^\"\n" +
		"\t_ = `{\"format\": \"oncall-reference/2\",\n\"seeds\": [1, 2]}`\n" +
		"\t_ = \"rule \\\"floor\\\"\\n  when minute == 3\\n  do set_min_instances(20)\\n\"\n" +
		"\t_ = `deploy { build = \"bad\" }`\n" +
		"}\n"
	path := filepath.Join(t.TempDir(), "x_test.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range luaScripts(t, path) {
		got = append(got, fmt.Sprintf("%s:%d:%d", s.holder, s.line, s.lines))
	}
	if want := "long:5:2 TestA:10:3 TestA:15:2"; strings.Join(got, " ") != want {
		t.Errorf("found %v, want %s", got, want)
	}
}
