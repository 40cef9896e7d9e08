package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/team"
)

// TestTeamKeys: every key of the team game days' catalogue
// (i18n/catalog/team.en.json) is used by their pages, the console's team
// endpoints or package team, and every key they name is in it. The keys
// made of a role, a status or a kind of entry are those of package team's
// lists.
func TestTeamKeys(t *testing.T) {
	b, err := os.ReadFile("../i18n/catalog/team.en.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat map[string]string
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	var files []string
	for _, g := range []string{"static/team*", "static/facilitate*", "static/postmortem*", "static/words.js", "static/index.html", "team*.go", "../team/*.go"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	for _, f := range files {
		if filepath.Ext(f) == ".go" && len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyPattern.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
		}
	}
	for _, r := range append(team.Roles(), team.Facilitator, team.Clock) {
		used["ui.team.role."+string(r)] = true
	}
	for _, r := range team.Roles() {
		used["ui.team.rolehelp."+string(r)] = true
	}
	for _, s := range team.States {
		used["ui.team.state."+s] = true
	}
	for _, k := range []team.Kind{team.Start, team.Pause, team.Speed, team.Step, team.Decision, team.Status, team.Note, team.Inject, team.Message, team.Assign, team.Tick} {
		used["ui.team.verb."+string(k)] = true
	}
	var unused, missing []string
	for k := range cat {
		if !used[k] {
			unused = append(unused, k)
		}
	}
	for k := range used {
		if _, ok := cat[k]; !ok && !i18n.Has(k) {
			missing = append(missing, k)
		}
	}
	sort.Strings(unused)
	sort.Strings(missing)
	if len(unused) > 0 {
		t.Errorf("team.en.json has keys nothing uses: %v", unused)
	}
	if len(missing) > 0 {
		t.Errorf("keys named but in no catalogue: %v", missing)
	}
}
