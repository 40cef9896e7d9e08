package gameday

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// oldFile is a game-day file as earlier versions of oncall wrote it.
const oldFile = `[
 {
  "id": "3f2a9c01d4e7",
  "scenario": "bad-deploy",
  "seed": 77,
  "noise": true,
  "results": [
   {
    "name": "Ana",
    "decisions": 1,
    "outcome": {"minutes": 120, "budget_used": 0.012, "availability": 0.9991, "first_page": 16},
    "score": 10,
    "max": 10
   },
   {
    "name": "Budi",
    "decisions": 0,
    "autopilot": "bad-deploy",
    "outcome": {"minutes": 120, "budget_used": 0.011},
    "score": 8,
    "max": 10
   }
  ]
 },
 {
  "id": "0c0ffee00001",
  "scenario": "surge",
  "seed": 4,
  "noise": false,
  "results": []
 }
]
`

// A JSON file is imported once into the SQLite file beside it, with a
// message; the JSON file is left as it was; the next start uses the
// database; a JSON file changed since is refused.
func TestImportJSON(t *testing.T) {
	path := write(t, "gameday.json", oldFile)
	var said []string
	say := func(m string) { said = append(said, m) }
	s, err := Open(ctx, path, Options{Say: say})
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(filepath.Dir(path), "gameday.db")
	if len(said) != 1 || !containsAll(said[0], "imported 2 game days and 2 results", path, db, "--data "+db) {
		t.Errorf("said %q", said)
	}
	g, err := s.Get(ctx, "3f2a9c01d4e7")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Results) != 2 || g.Results[0].Name != "Ana" || g.Results[0].Outcome.FirstPage != 16 || g.Results[1].Autopilot != "bad-deploy" || g.Seed != 77 {
		t.Errorf("imported %+v", g)
	}
	if g, _ := s.Get(ctx, "0c0ffee00001"); g.Noise || g.Scenario != "surge" {
		t.Errorf("imported %+v", g)
	}
	if _, err := s.Add(ctx, "0c0ffee00001", Result{Name: "Cem"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if b, _ := os.ReadFile(path); string(b) != oldFile {
		t.Error("the JSON file was changed")
	}

	said = nil
	s, err = Open(ctx, path, Options{Say: say})
	if err != nil {
		t.Fatal(err)
	}
	if len(said) != 1 || !containsAll(said[0], "was imported into", db) {
		t.Errorf("second start said %q", said)
	}
	if g, _ := s.Get(ctx, "0c0ffee00001"); len(g.Results) != 1 {
		t.Errorf("the second start imported again or lost a result: %+v", g)
	}
	s.Close()

	os.WriteFile(path, []byte(strings.Replace(oldFile, `"seed": 4,`, `"seed": 5,`, 1)), 0o644)
	_, err = Open(ctx, path, Options{})
	if err == nil || !containsAll(err.Error(), "did not come from", "--data "+db, "nothing was changed") {
		t.Errorf("changed JSON: %v", err)
	}
}

// A malformed file of game days is refused with the file, the line and the
// entry, before any database is made.
func TestImportJSONRefuses(t *testing.T) {
	cases := []struct{ name, text, says string }{
		{"null entry", `[null]`, "gameday.json:1: entry 1 is null: each entry is a game day"},
		{"not a list", `{"id": "a"}`, "gameday.json:1: a file of game days is a JSON list"},
		{"duplicate ids", "[\n{\"id\": \"a\", \"scenario\": \"surge\", \"seed\": 1},\n{\"id\": \"b\", \"scenario\": \"surge\", \"seed\": 1},\n  {\"id\": \"a\", \"scenario\": \"surge\", \"seed\": 2}\n]",
			"gameday.json:4: entry 3 has the id a of entry 1: ids must be unique"},
		{"duplicate names", `[{"id": "a", "scenario": "surge", "seed": 1, "results": [{"name": "Ana"}, {"name": "Ana"}]}]`, "entry 1 (game day a): results 1 and 2 are both \"Ana\""},
		{"null result", `[{"id": "a", "scenario": "surge", "seed": 1, "results": [null]}]`, "(game day a): result 1: is null"},
		{"unknown field", `[{"id": "a", "scenario": "surge", "seed": 1, "sede": 2}]`, `entry 1 is not a game day: unknown field "sede"`},
		{"missing id", `[{"scenario": "surge", "seed": 1}]`, `entry 1 has a bad id "": an id has 1 to 64`},
		{"missing seed", `[{"id": "a", "scenario": "surge"}]`, "(game day a): seed is missing"},
		{"negative seed", `[{"id": "a", "scenario": "surge", "seed": -1}]`, `entry 1 is not a game day: field "seed" cannot be number -1`},
		{"bad name", `[{"id": "a", "scenario": "surge", "seed": 1, "results": [{"name": "two\nlines"}]}]`, "result 1: name ="},
		{"syntax error", "[\n{\"id\": \"a\",\n \"scenario\": surge}]", "gameday.json:3: entry 1: invalid character 's'"},
		{"cut short", `[{"id": "a", "scenario": "surge", "seed": 1}`, "entry 2: the file ends in the middle of it"},
		{"text after", `[] []`, "gameday.json:1: text after the list"},
		{"null", `null`, "a file of game days is a JSON list"},
		{"bad replay", `[{"id": "a", "scenario": "surge", "seed": 1, "results": [{"name": "Ana", "decisions": 1, "replay": {"d": "12:rollbak"}}]}]`,
			"(game day a): result 1: replay.d: decision 1 \"12:rollbak\": unknown control"},
		{"replay of other decisions", `[{"id": "a", "scenario": "surge", "seed": 1, "results": [{"name": "Ana", "decisions": 2, "replay": {"d": "12:rollback"}}]}]`,
			"result 1: replay.d holds 1 decisions and decisions = 2"},
		{"replay of another policy", `[{"id": "a", "scenario": "surge", "seed": 1, "results": [{"name": "Ana", "autopilot": "surge", "replay": {"d": "", "policy": "bad-deploy", "until": -1}}]}]`,
			`result 1: replay: autopilot = "surge" but the replay's policy is "bad-deploy"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := write(t, "gameday.json", c.text)
			_, err := Open(ctx, path, Options{})
			if err == nil || !containsAll(err.Error(), c.says, "nothing was imported") {
				t.Errorf("got  %v\nwant %s", err, c.says)
			}
			if _, err := os.Stat(ImportPath(path)); err == nil {
				t.Error("a database was made")
			}
		})
	}
}

// An export in JSON imports again, to the same game days, replays and all.
func TestExportImportsAgain(t *testing.T) {
	days, err := parseJSON("gameday.json", []byte(oldFile))
	if err != nil {
		t.Fatal(err)
	}
	days[1].Results = append(days[1].Results,
		Result{Name: "Cem", Decisions: 2, Replay: &Replay{D: "12:rollback,30:shed=0.5"}},
		Result{Name: "Dewi", Decisions: 1, Autopilot: "pasted", Replay: &Replay{D: "40:feature=false", Source: "rule \"r\"\n  when paging\n  do rollback()\n", Until: 35}})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, days); err != nil {
		t.Fatal(err)
	}
	again, err := parseJSON("export.json", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(days, again) {
		t.Errorf("round trip\n%+v\n%+v", days, again)
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(oldFile))
	f.Add([]byte(`[null]`))
	f.Add([]byte(`[{"id": "a", "scenario": "surge", "seed": 1, "results": [{"name": "Ana"}, {"name": "Ana"}]}]`))
	f.Add([]byte("\xef\xbb\xbf[]"))
	f.Add([]byte(`[{"id":"a","scenario":"s","seed":1,"results":[{"name":"x","decisions":1,"autopilot":"p","replay":{"d":"3:shed=0.5","policy":"p","until":2}}]}]`))
	f.Add([]byte(`[{"id":"a","scenario":"s","seed":1,"created":"2026-01-01T00:00:00Z","results":[{"name":"x","submitted":"2026-01-01T00:00:00Z"}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		days, err := parseJSON("f.json", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, g := range days {
			if CheckID(g.ID) != nil || ids[g.ID] || g.Results == nil {
				t.Fatalf("accepted %+v", g)
			}
			ids[g.ID] = true
			for _, r := range g.Results {
				if CheckName(r.Name) != nil {
					t.Fatalf("accepted the name %q", r.Name)
				}
				if err := CheckReplay(r); err != nil {
					t.Fatalf("accepted the replay %+v: %v", r.Replay, err)
				}
			}
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, days); err != nil {
			if _, ok := err.(*json.UnsupportedValueError); ok {
				return
			}
			t.Fatal(err)
		}
		if _, err := parseJSON("f.json", buf.Bytes()); err != nil {
			t.Fatalf("an accepted file does not read back once written: %v", err)
		}
	})
}
