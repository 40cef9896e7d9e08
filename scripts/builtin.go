package scripts

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/oncall-sim/oncall/internal/spell"
)

// BuiltinPrefix names a shipped policy wherever a policy file is asked for
// (-p builtin:bad-deploy): no path to the checkout is needed.
const BuiltinPrefix = "builtin:"

// Builtin returns a shipped policy by name: a built-in scenario's reference
// policy by the scenario's id (bad-deploy), an example by its name
// (rollback-on-page), and the file it is embedded as (bad-deploy.rules,
// examples/rollback-on-page.rules). The error lists the names and suggests
// the nearest.
func Builtin(name string) (file string, src []byte, err error) {
	for _, f := range []string{name + ".rules", "examples/" + name + ".rules"} {
		if b, err := Files.ReadFile(f); err == nil {
			return f, b, nil
		}
	}
	names := Names()
	return "", nil, fmt.Errorf("no built-in policy %q%s (the built-in policies: %s)", name, spell.Suggest(name, names), strings.Join(names, ", "))
}

// Names lists the shipped policies' names, the reference policies first,
// each list in name order.
func Names() []string {
	var refs, examples []string
	fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rules") {
			name := strings.TrimSuffix(path.Base(p), ".rules")
			if strings.HasPrefix(p, "examples/") {
				examples = append(examples, name)
			} else {
				refs = append(refs, name)
			}
		}
		return nil
	})
	sort.Strings(refs)
	sort.Strings(examples)
	return append(refs, examples...)
}
