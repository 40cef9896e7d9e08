package grade

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/scenarios"
	"github.com/oncall-sim/oncall/scripts"
)

// A reference file records an assignment: each scenario by where it came
// from (Reference.Source: a built-in's file name, "bad-deploy.lua", or the
// path of the instructor's file as oncall golden record was given it, with
// a folder: "./drill.lua", "week3/drill.lua") and its reference policy
// (Reference.Policy: a built-in's "scripts/<id>.rules", or the path of a
// rules file). From them, grading finds every scenario of the file without
// being told (ScenarioArg), and a refusal prints the command that records
// the whole file again (RecordCommand).

// isBuiltin reports whether a program is the built-in scenario of its id,
// byte for byte as the binary embeds it.
func isBuiltin(p Program) bool {
	if p.File() != p.ID()+".lua" {
		return false
	}
	src, err := scenarios.Files.ReadFile(p.File())
	return err == nil && string(src) == p.Source()
}

// sourceFile is what a reference records of where a program came from: a
// built-in's file name, alone; any other file's path with a folder, so
// that a file in the current folder named as a built-in is told from it
// ("./surge.lua").
func sourceFile(p Program) string {
	f := p.File()
	if isBuiltin(p) || f == "" || strings.ContainsAny(f, `/\`) {
		return f
	}
	return "." + string(filepath.Separator) + f
}

// ScenarioArg is how oncall's --scenario names the reference's scenario: a
// built-in's id, or the file it was recorded from.
func (r *Reference) ScenarioArg() string {
	if r.Source == r.Scenario+".lua" && slices.Contains(scenarios.Names(), r.Scenario) {
		return r.Scenario
	}
	if r.Source == "" {
		return r.Scenario // written in Go: only its id is known
	}
	return r.Source
}

// ScenarioArgs are the ScenarioArg of every reference of the file, in
// order.
func (f *ReferenceFile) ScenarioArgs() []string {
	out := make([]string, len(f.References))
	for i := range f.References {
		out[i] = f.References[i].ScenarioArg()
	}
	return out
}

// PolicyArg is how oncall golden record names the reference's policy: ""
// for the scenario's own built-in reference policy (the default), a
// built-in policy as builtin:NAME, any other by its file.
func (r *Reference) PolicyArg() string {
	name, ok := strings.CutPrefix(r.Policy, "scripts/")
	name, ok2 := strings.CutSuffix(name, ".rules")
	if !ok || !ok2 || strings.Contains(name, "/") {
		return r.Policy
	}
	if _, _, err := scripts.Builtin(name); err != nil {
		return r.Policy
	}
	if name == r.Scenario && r.ScenarioArg() == r.Scenario {
		return ""
	}
	return scripts.BuiltinPrefix + name
}

// RecordCommand is the oncall golden record command that records every
// reference of the file again, into file: each scenario with --scenario (a
// built-in's id or the scenario's file), its reference policy where it is
// not the scenario's built-in one (-p for a file of one scenario,
// NAME=POLICY for several), the seeds and the noise setting, which one
// command gives every scenario alike. A file whose references differ in
// seeds or noise (files merged by hand) takes a command for each group,
// each into a file of its own beside file; grade then takes them one at a
// time.
func (f *ReferenceFile) RecordCommand(file string) string {
	type group struct {
		seeds string
		noise bool
		refs  []*Reference
	}
	var groups []*group
	for i := range f.References {
		r := &f.References[i]
		j := slices.IndexFunc(groups, func(g *group) bool { return g.seeds == r.Seeds && g.noise == r.Noise })
		if j < 0 {
			groups = append(groups, &group{seeds: r.Seeds, noise: r.Noise})
			j = len(groups) - 1
		}
		groups[j].refs = append(groups[j].refs, r)
	}
	var cmds []string
	for i, g := range groups {
		var b strings.Builder
		b.WriteString("oncall golden record")
		for _, r := range g.refs {
			b.WriteString(" -s " + shellQuote(r.ScenarioArg()))
			if pol := r.PolicyArg(); pol != "" && len(g.refs) > 1 {
				b.WriteString("=" + shellQuote(pol))
			}
		}
		b.WriteString(" --seeds " + g.seeds)
		if !g.noise {
			b.WriteString(" --no-noise")
		}
		if pol := g.refs[0].PolicyArg(); pol != "" && len(g.refs) == 1 {
			b.WriteString(" -p " + shellQuote(pol))
		}
		out := file
		if len(groups) > 1 {
			ext := filepath.Ext(file)
			out = fmt.Sprintf("%s.%d%s", strings.TrimSuffix(file, ext), i+1, ext)
		}
		b.WriteString(" -o " + shellQuote(out))
		cmds = append(cmds, b.String())
	}
	return strings.Join(cmds, "; ")
}

// shellQuote quotes an argument for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
