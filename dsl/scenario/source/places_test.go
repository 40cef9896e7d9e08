package source

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/internal/luachunk"
	"github.com/oncall-sim/oncall/scenarios"
)

// String shows a table's fields and their places (line:column of the name,
// then of the value), for tests.
func (t *tableAt) String() string {
	if t == nil {
		return "?"
	}
	var b strings.Builder
	b.WriteString("{@" + posText(t.open))
	for _, name := range slices.Sorted(maps.Keys(t.named)) {
		f := t.named[name]
		b.WriteString(" " + name + "@" + posText(f.key) + "=" + posText(f.value))
		if f.table != nil {
			b.WriteString(f.table.String())
		}
	}
	for _, i := range slices.Sorted(maps.Keys(t.items)) {
		f := t.items[i]
		b.WriteString(" [" + strconv.Itoa(i) + "]=" + posText(f.value))
		if f.table != nil {
			b.WriteString(f.table.String())
		}
	}
	return b.String() + "}"
}

func posText(p dsl.Pos) string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

func placesOf(t *testing.T, src string) *Places {
	t.Helper()
	chunk, err := parse.Parse(strings.NewReader(src), "p.lua")
	if err != nil {
		t.Fatal(err)
	}
	return Find("p.lua", src, chunk)
}

// TestPlacesFromTheTree: fields are found by the syntax tree, in whatever
// shape the script writes them, and their columns count characters.
func TestPlacesFromTheTree(t *testing.T) {
	src := luachunk.Src(t, "testdata/places.lua", "TestPlacesFromTheTree")
	ps := placesOf(t, src)
	for _, tc := range []struct {
		line int
		name string
		want string
	}{
		{2, "scenario", "{@2:10 budget_left@5:4=5:21 controls@4:3=4:14{@4:14 feature@4:28=4:38 shed@4:16=4:23} hook@6:3=6:10 id@3:3=3:8 title@3:13=3:21{@3:21 en@3:23=3:28 fr@3:37=3:42} warm@6:61=6:68 [1]=7:3 [2]=7:11{@7:11 nested@7:13=7:22} [3]=8:9}"},
		{11, "deploy", "{@11:25 build@11:27=11:35 rollout@11:42=11:52}"},
		{12, "grade", "{@12:7 [1]=12:9{@12:9 at_most@12:28=12:38 metric@12:11=12:20} [2]=13:9{@13:9 metric@13:11=13:20}}"},
		{12, "scenario", "?"},
	} {
		if got := ps.argOf(tc.line, tc.name).String(); got != tc.want {
			t.Errorf("%s{} on line %d:\n got %s\nwant %s", tc.name, tc.line, got, tc.want)
		}
	}
}

// A table built elsewhere has no constructor at its call: positions fall
// back to the line of the call.
func TestPlaceFallsBackToTheCall(t *testing.T) {
	src := luachunk.Src(t, "testdata/places.lua", "TestPlaceFallsBackToTheCall")
	ps := placesOf(t, src)
	if at := ps.argOf(2, "deploy"); at != nil {
		t.Fatalf("deploy(t) has a constructor: %v", at)
	}
	p := ps.Arg(dsl.Pos{File: "p.lua", Line: 2}, "deploy")
	if got := p.Value("build"); got != (dsl.Pos{File: "p.lua", Line: 2}) {
		t.Errorf("Value(build) = %v, want the call's line", got)
	}
	if got := p.In("leak").Key("x"); got.Line != 2 || got.Col != 0 {
		t.Errorf("a nested field = %v, want the call's line", got)
	}
}

// FuzzPlaces: for any file that parses, the syntax tree and the tokens
// agree on the table constructors (as many, on the same lines), so that
// every call passing one is found, and nothing panics.
func FuzzPlaces(f *testing.F) {
	for _, name := range scenarios.Names() {
		if src, err := scenarios.Files.ReadFile(name + ".lua"); err == nil {
			f.Add(string(src))
		}
	}
	cases, _ := filepath.Glob("../testdata/hostile/*.lua")
	for _, name := range cases {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("f{ a = { [{}] = {}, function() local t = { 1, {} } end }, { x = 'y' }; }")
	f.Fuzz(func(t *testing.T, src string) {
		if Check("f.lua", src) != nil {
			return
		}
		chunk, err := parse.Parse(strings.NewReader(src), "f.lua")
		if err != nil {
			return
		}
		w := &treeFinds{}
		sandbox.Walk{Enter: w.enter}.Block(chunk)
		ps := Find("f.lua", src, chunk)
		for _, c := range w.calls {
			at := ps.argOf(c.line, c.name)
			if at == nil {
				t.Fatalf("%s{} on line %d: no place found", c.name, c.line)
			}
		}
	})
}
