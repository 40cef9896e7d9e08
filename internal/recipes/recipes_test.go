package recipes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, seen from this package.
const root = "../.."

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?$`)
	step       = regexp.MustCompile(`^\d+\. `)
)

// TestRecipesPointAtWhatExists reads every recipe of CONTRIBUTING.md (a
// section "## Add ..." or "## Change ...") step by step: each file or
// folder a step names must exist, each name it quotes must stand in one of
// the files that step names, and each test it cites must exist. A recipe
// whose code has moved fails here, not in a contributor's hands.
func TestRecipesPointAtWhatExists(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	tests := testNames(t)
	recipes := 0
	for _, sec := range strings.Split(string(b), "\n## ")[1:] {
		title, body, _ := strings.Cut(sec, "\n")
		if !strings.HasPrefix(title, "Add ") && !strings.HasPrefix(title, "Change ") {
			continue
		}
		recipes++
		steps := steps(body)
		if len(steps) == 0 {
			t.Errorf("recipe %q has no numbered steps", title)
		}
		for i, s := range steps {
			checkStep(t, title, i+1, s, tests)
		}
	}
	if recipes < 5 {
		t.Errorf("%d recipes in CONTRIBUTING.md; want at least metric, constant, control, scenario function and language", recipes)
	}
}

// steps returns the numbered items of a recipe, each with its continuation
// lines.
func steps(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		switch {
		case step.MatchString(line):
			out = append(out, line)
		case len(out) > 0 && strings.HasPrefix(line, "   "):
			out[len(out)-1] += " " + strings.TrimSpace(line)
		}
	}
	return out
}

func checkStep(t *testing.T, recipe string, n int, text string, tests map[string]bool) {
	t.Helper()
	var files []string
	var names []string
	for _, m := range backticked.FindAllStringSubmatch(text, -1) {
		tok := m[1]
		switch {
		case strings.Contains(tok, "<"):
			// a pattern such as metric.<name>.label: nothing to look for
		case strings.HasPrefix(tok, "go "):
			// a command to run, such as go generate
		case strings.Contains(tok, "/") || strings.HasSuffix(tok, ".go") || strings.HasSuffix(tok, ".md"):
			found, err := filepath.Glob(filepath.Join(root, tok))
			if err != nil || len(found) == 0 {
				t.Errorf("%s, step %d: %s does not exist", recipe, n, tok)
				continue
			}
			files = append(files, found...)
		case strings.HasPrefix(tok, "Test") && identifier.MatchString(tok):
			if !tests[tok] {
				t.Errorf("%s, step %d: no test is named %s", recipe, n, tok)
			}
		case identifier.MatchString(tok):
			names = append(names, tok)
		}
	}
	if len(files) == 0 {
		return
	}
	text = readAll(t, files)
	for _, name := range names {
		name = strings.TrimSuffix(name, "()")
		for _, part := range strings.Split(name, ".") {
			if !strings.Contains(text, part) {
				t.Errorf("%s, step %d: %s is not in the files the step names", recipe, n, name)
				break
			}
		}
	}
}

// readAll reads the files, and the files right inside the folders, given.
func readAll(t *testing.T, paths []string) string {
	t.Helper()
	var sb strings.Builder
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if !e.IsDir() {
					b, _ := os.ReadFile(filepath.Join(p, e.Name()))
					sb.Write(b)
				}
			}
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
	}
	return sb.String()
}

// testNames lists the test functions of the repository.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
