package main

import (
	"errors"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/engine"
)

// checkPolicy validates a policy file for `oncall check`: every problem of
// the file, each with its place, or none.
func checkPolicy(env *Env, name string, src []byte) dsl.List {
	_, err := policy.Compile(name, src)
	if err == nil {
		return nil
	}
	var list dsl.List
	if errors.As(err, &list) {
		return list
	}
	return dsl.List{{Pos: dsl.Pos{File: name}, Message: err.Error()}}
}

// loadPolicy reads and compiles --policy FILE; no file means no policy. A
// file that does not load is a usage error showing every diagnostic.
func loadPolicy(env *Env, name string) (engine.Policy, error) {
	if name == "" {
		return nil, nil
	}
	src, err := env.ReadFile(name)
	if err != nil {
		return nil, usageError("--policy %s: %v", name, err)
	}
	p, err := policy.Compile(name, src)
	var list dsl.List
	if errors.As(err, &list) {
		return nil, usageError("--policy %s does not load:\n%s", name, list.Render())
	}
	if err != nil {
		return nil, usageError("--policy %s: %v", name, err)
	}
	return p.Instance(), nil
}
