package grade_test

import (
	"testing"

	"github.com/oncall-sim/oncall/grade"
)

// The command that records a file again names each scenario as --scenario
// takes it and each reference policy that is not the scenario's own, with
// the file's seeds and noise; references that differ in seeds or noise
// take a command a group, each into a file of its own.
func TestRecordCommand(t *testing.T) {
	ref := func(id, source, policy, seeds string, noise bool) grade.Reference {
		return grade.Reference{Scenario: id, Source: source, Policy: policy, Seeds: seeds, Noise: noise}
	}
	for _, c := range []struct {
		name string
		refs []grade.Reference
		want string
	}{
		{"a built-in with its own policy", []grade.Reference{ref("surge", "surge.lua", "scripts/surge.rules", "1-20", true)},
			"oncall golden record -s surge --seeds 1-20 -o refs.json"},
		{"a file with a built-in policy", []grade.Reference{ref("drill", "./drill.lua", "scripts/bad-deploy.rules", "5", false)},
			"oncall golden record -s ./drill.lua --seeds 5 --no-noise -p builtin:bad-deploy -o refs.json"},
		{"a file of format 2, in the current folder", []grade.Reference{ref("drill", "drill.lua", "my policy.rules", "5", true)},
			"oncall golden record -s drill.lua --seeds 5 -p 'my policy.rules' -o refs.json"},
		{"a built-in scenario under a file's policy, and an example", []grade.Reference{
			ref("bad-deploy", "bad-deploy.lua", "it's.rules", "1-3", true),
			ref("surge", "surge.lua", "scripts/rollback-on-page.rules", "1-3", true),
			ref("cache-flush", "cache-flush.lua", "scripts/cache-flush.rules", "1-3", true)},
			`oncall golden record -s bad-deploy='it'\''s.rules' -s surge=builtin:rollback-on-page -s cache-flush --seeds 1-3 -o refs.json`},
		{"seeds that differ", []grade.Reference{ref("surge", "surge.lua", "scripts/surge.rules", "1-3", true), ref("a", "w/a.lua", "a.rules", "1-5", true)},
			"oncall golden record -s surge --seeds 1-3 -o refs.1.json; oncall golden record -s w/a.lua --seeds 1-5 -p a.rules -o refs.2.json"},
	} {
		f := &grade.ReferenceFile{References: c.refs}
		if got := f.RecordCommand("refs.json"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
