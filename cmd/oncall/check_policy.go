package main

import (
	"errors"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/shift"
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
func loadPolicy(env *Env, name string) (shift.Policy, error) {
	if name == "" {
		return nil, nil
	}
	p, err := readPolicyFile(env, "--policy", name)
	if err != nil {
		return nil, err
	}
	return p, nil
}
