package recipes

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// A table is a list of names that several files repeat by hand: a file
// that names nearly all of them (listingShare) lists the table, and adding
// a line to it means editing that file too.
type table struct {
	recipe string   // the title of its recipe in CONTRIBUTING.md
	names  []string // what a file that lists it names, as whole words
}

const listingShare = 0.8

func tables() []table {
	var metrics, controls, languages, codes []string
	for _, s := range engine.MetricSpecs() {
		if !s.Control { // a control's column goes with the control's recipe
			metrics = append(metrics, s.Name)
		}
	}
	for _, s := range engine.ControlSpecs() {
		controls = append(controls, s.Name)
	}
	for _, l := range i18n.Languages() {
		languages = append(languages, l.English)
		codes = append(codes, l.Code)
	}
	return []table{
		{"Add a metric", metrics},
		{"Add a constant", engine.ConstantNames()},
		{"Add a control", controls},
		{"Add a language", languages},
		{"Add a language", codes}, // a text by language, a list of the codes a text may use
	}
}

// notTables are the parts of the tree that name a whole table without
// being one a contributor keeps: recorded outputs and fixtures (the goldens
// step re-records them), tests, and the Python model of benchtools/simpy,
// an independent program that the speed comparison runs as it is.
func notTable(path string) bool {
	return strings.HasSuffix(path, "_test.go") ||
		strings.Contains(path, "/testdata/") || strings.HasPrefix(path, "testdata/") ||
		strings.HasPrefix(path, "benchtools/")
}

// generated reports whether a file says, in its first lines, that go
// generate writes it: a contributor runs the generator, not an editor.
func generated(b []byte) bool {
	head := string(b[:min(len(b), 800)])
	return strings.Contains(head, "go generate")
}

// TestRecipesListEveryTable fails when a recipe's list of files is short:
// every file of the repository (but those notTable and generated leave
// out) that names at least 80 % of a table's names as words must be named
// by that table's recipe in CONTRIBUTING.md, as a file or its folder.
func TestRecipesListEveryTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	recipes := recipeFiles(t, string(b))
	files := repositoryFiles(t)
	for _, tb := range tables() {
		named, ok := recipes[tb.recipe]
		if !ok {
			t.Errorf("CONTRIBUTING.md has no recipe %q", tb.recipe)
			continue
		}
		for _, path := range slices.Sorted(maps.Keys(files)) {
			n := 0
			for _, name := range tb.names {
				if files[path][name] {
					n++
				}
			}
			if float64(n) < listingShare*float64(len(tb.names)) || covered(path, named) {
				continue
			}
			t.Errorf("%s names %d of the %d names a %q changes, and the recipe does not send a contributor to it: add a step for it, or derive it from the engine's table", path, n, len(tb.names), tb.recipe)
		}
	}
}

// covered reports whether path is one of the files or inside one of the
// folders a recipe names.
func covered(path string, named []string) bool {
	for _, n := range named {
		if path == n || strings.HasSuffix(n, "/") && strings.HasPrefix(path, n) {
			return true
		}
	}
	return false
}

// recipeFiles returns, for each recipe's title, the files and folders
// (ending in /) its steps name, as paths from the root; a glob such as
// scenarios/*.lua counts as the files it matches.
func recipeFiles(t *testing.T, doc string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, sec := range strings.Split(doc, "\n## ")[1:] {
		title, body, _ := strings.Cut(sec, "\n")
		if !strings.HasPrefix(title, "Add ") && !strings.HasPrefix(title, "Change ") {
			continue
		}
		var named []string
		for _, s := range steps(body) {
			for _, m := range backticked.FindAllStringSubmatch(s, -1) {
				tok := m[1]
				if strings.Contains(tok, "<") || strings.Contains(tok, " ") ||
					!strings.Contains(tok, "/") && !strings.Contains(tok, ".") {
					continue
				}
				found, _ := filepath.Glob(filepath.Join(root, tok))
				for _, f := range found {
					rel, _ := filepath.Rel(root, f)
					rel = filepath.ToSlash(rel)
					if fi, err := os.Stat(f); err == nil && fi.IsDir() {
						rel += "/"
					}
					named = append(named, rel)
				}
			}
		}
		out[title] = named
	}
	return out
}

// word is what a name of a table is made of.
var word = regexp.MustCompile(`[A-Za-z0-9_]+`)

// repositoryFiles reads every text file of the repository that may hold a
// table, by path from the root, as the set of its words.
func repositoryFiles(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if notTable(rel) || !slices.Contains([]string{".go", ".md", ".json", ".lua", ".js", ".html", ".css", ".rules", ".sh"}, filepath.Ext(rel)) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !generated(b) {
			words := map[string]bool{}
			for _, w := range word.FindAll(b, -1) {
				words[string(w)] = true
			}
			out[rel] = words
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// counted is a recipe's sum of the files edited by hand: "That is N files
// edited by hand (a, b or c, the six catalogues, ...)".
var counted = regexp.MustCompile(`That is (\d+) files edited by hand \(([^()]*)\)`)

// numbers are the counts the recipes write as words.
var numbers = map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15}

// handFiles counts the files a recipe's list of hand-edited files names:
// one an item, "a or b" one, "the six catalogues" six; ok is false for an
// item it cannot read.
func handFiles(list string) (n int, ok bool) {
	for _, item := range strings.Split(strings.ReplaceAll(list, "\n", " "), ", ") {
		item = strings.TrimPrefix(strings.TrimSpace(item), "and ")
		words := strings.Fields(strings.TrimPrefix(item, "the "))
		switch {
		case strings.HasPrefix(item, "`"):
			n++
		case len(words) > 1 && numbers[words[0]] > 0:
			n += numbers[words[0]]
		default:
			return 0, false
		}
	}
	return n, true
}

// TestRecipesCountTheirFiles: each recipe's "That is N files edited by
// hand" adds up its list, so that a file added to a recipe's list moves
// its count too.
func TestRecipesCountTheirFiles(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, m := range counted.FindAllStringSubmatch(string(b), -1) {
		found++
		n, ok := handFiles(m[2])
		if !ok {
			t.Errorf("CONTRIBUTING.md: cannot count the files of %q: name each in backquotes, or write \"the six ...\"", m[0])
			continue
		}
		if want, _ := strconv.Atoi(m[1]); n != want {
			t.Errorf("CONTRIBUTING.md says %s files edited by hand, and its list names %d: %s", m[1], n, strings.Join(strings.Fields(m[2]), " "))
		}
	}
	if found < 4 {
		t.Errorf("CONTRIBUTING.md counts the files of %d recipes; want the metric's, the constant's, the control's and the language's", found)
	}
}
