package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/internal/untrusted"
	"github.com/oncall-sim/oncall/scenarios"
)

// Builtins compiles the embedded scenarios, in the order free-play,
// bad-deploy, surge, cache-flush.
func Builtins(opts Options) ([]*Program, error) {
	progs := make([]*Program, 0, len(scenarios.Names()))
	for _, name := range scenarios.Names() {
		p, err := Builtin(name, opts)
		if err != nil {
			return nil, err
		}
		progs = append(progs, p)
	}
	return progs, nil
}

// Builtin compiles one embedded scenario by name; for an unknown name the
// error suggests the nearest one.
func Builtin(name string, opts Options) (*Program, error) {
	file := name + ".lua"
	if !slices.Contains(scenarios.Names(), name) {
		return nil, fmt.Errorf("unknown scenario %q%s (built-in scenarios: %s; or give the path of a .lua file)",
			name, spell.Suggest(name, scenarios.Names()), strings.Join(scenarios.Names(), ", "))
	}
	src, err := scenarios.Files.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("built-in scenario %s: %v", name, err)
	}
	return Compile(file, src, opts)
}

// LoadDir compiles every .lua file of dir (not its subfolders), by name,
// but for annotation files (*.d.lua) of the Lua language server. It
// returns the programs that compiled and, when some did not, a dsl.List of
// their problems; an unreadable folder is an error of its own. A scenario
// whose id is a built-in's, or an earlier file's, is a problem too: a
// scenario is chosen by its id, so two with one id cannot both be offered.
func LoadDir(dir string, opts Options) ([]*Program, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".lua") && e.Name() != scenarios.Annotations && !strings.HasSuffix(e.Name(), ".d.lua") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var progs []*Program
	var problems dsl.List
	taken := map[string]string{} // id → the file that has it
	for _, name := range scenarios.Names() {
		taken[name] = "the built-in scenario " + name
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		src, err := untrusted.ReadFile(path, untrusted.DefaultMax) // a link or a FIFO named .lua is left out, named
		if err != nil {
			problems = append(problems, dsl.Diagnostic{Pos: dsl.Pos{File: path}, Message: err.Error()})
			continue
		}
		p, err := Compile(path, src, opts)
		if err != nil {
			var l dsl.List
			if errors.As(err, &l) {
				problems = append(problems, l...)
			} else {
				problems = append(problems, dsl.Diagnostic{Pos: dsl.Pos{File: path}, Message: err.Error()})
			}
			continue
		}
		if other, ok := taken[p.ID()]; ok {
			problems = append(problems, p.diagAt(p.argPlace(p.decl.pos, "scenario").value("id"), "scenario{}",
				fmt.Sprintf("id %q is already the id of %s: give this scenario an id of its own", p.ID(), other)))
			continue
		}
		taken[p.ID()] = path
		progs = append(progs, p)
	}
	return progs, problems.Err()
}
