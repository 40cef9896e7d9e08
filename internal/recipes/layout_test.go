package recipes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// leaves are the packages any package may import, left out of the graph of
// CONTRIBUTING.md; each imports no other package of the project.
var leaves = []string{"internal/budget", "internal/spell", "internal/luapattern", "internal/columns", "internal/safetext", "internal/untrusted"}

// TestLayoutGraphMatchesGoList compares the graph of "How the code is laid
// out" in CONTRIBUTING.md, line by line, with the imports go list reports
// for every package of the module (tests aside): an import missing from the
// graph, an arrow the code does not have, a package the graph names that
// does not exist, each fails with the line to write.
func TestLayoutGraphMatchesGoList(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	written, err := layoutGraph(string(b))
	if err != nil {
		t.Fatal(err)
	}
	listed := goListGraph(t)
	for _, pkg := range sortedKeys(listed) {
		imports := listed[pkg]
		if slices.Contains(leaves, pkg) {
			if len(imports) > 0 {
				t.Errorf("%s is a leaf, yet imports %s", pkg, strings.Join(imports, ", "))
			}
			continue
		}
		var kept []string
		for _, imp := range imports {
			if !slices.Contains(leaves, imp) {
				kept = append(kept, imp)
			}
		}
		slices.Sort(kept)
		got := slices.Sorted(slices.Values(written[pkg]))
		if !slices.Equal(got, kept) {
			if len(kept) == 0 {
				t.Errorf("CONTRIBUTING.md: %s imports no package of the project (but the leaves): drop its line", pkg)
			} else {
				t.Errorf("CONTRIBUTING.md: the line of %s says %v; go list says\n  %s → %s", pkg, got, pkg, strings.Join(kept, ", "))
			}
		}
	}
	for _, pkg := range sortedKeys(written) {
		if _, ok := listed[pkg]; !ok {
			t.Errorf("CONTRIBUTING.md: the graph has a line for %s, which is not a package of the module", pkg)
		}
		for _, imp := range written[pkg] {
			if _, ok := listed[imp]; !ok {
				t.Errorf("CONTRIBUTING.md: %s → %s, which is not a package of the module", pkg, imp)
			}
		}
	}
}

// layoutGraph reads the block of "pkg → a, b" lines that follows the words
// "Dependencies point one way" in CONTRIBUTING.md.
func layoutGraph(doc string) (map[string][]string, error) {
	_, after, ok := strings.Cut(doc, "Dependencies point one way")
	if !ok {
		return nil, fmt.Errorf("CONTRIBUTING.md: no paragraph \"Dependencies point one way\"")
	}
	_, after, ok = strings.Cut(after, "```text\n")
	if !ok {
		return nil, fmt.Errorf("CONTRIBUTING.md: no ```text block of the graph after \"Dependencies point one way\"")
	}
	block, _, ok := strings.Cut(after, "```")
	if !ok {
		return nil, fmt.Errorf("CONTRIBUTING.md: the graph's ```text block does not end")
	}
	graph := map[string][]string{}
	for i, line := range strings.Split(strings.TrimSpace(block), "\n") {
		pkg, imports, ok := strings.Cut(line, "→")
		pkg = strings.TrimSpace(pkg)
		if !ok || pkg == "" {
			return nil, fmt.Errorf("CONTRIBUTING.md: line %d of the graph, %q, is not \"package → imports, ...\"", i+1, line)
		}
		if _, dup := graph[pkg]; dup {
			return nil, fmt.Errorf("CONTRIBUTING.md: the graph has two lines for %s", pkg)
		}
		graph[pkg] = nil
		for _, imp := range strings.Split(imports, ",") {
			if imp = strings.TrimSpace(imp); imp != "" {
				graph[pkg] = append(graph[pkg], imp)
			}
		}
	}
	return graph, nil
}

// goListGraph is every package of the module and the packages of the
// module it imports, by their paths inside it, as go list sees them.
func goListGraph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Module", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	type pkg struct {
		ImportPath string
		Imports    []string
		Module     struct{ Path string }
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list gave %d packages", len(pkgs))
	}
	module := pkgs[0].Module.Path + "/"
	for _, p := range pkgs {
		name := strings.TrimPrefix(p.ImportPath, module)
		graph[name] = []string{}
		for _, imp := range p.Imports {
			if rest, ok := strings.CutPrefix(imp, module); ok {
				graph[name] = append(graph[name], rest)
			}
		}
	}
	return graph
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
