package team

import "slices"

// allowed lists the roles that may write each kind of entry; a join and a
// leave are each member's own, and no role is asked of them.
func allowed(k Kind) []Role {
	switch k {
	case Start, Pause, Speed:
		return []Role{Commander, Facilitator}
	case Step:
		return []Role{Commander}
	case Decision:
		return []Role{Commander, Operations}
	case Status:
		return []Role{Communications}
	case Note:
		return []Role{Scribe}
	case Inject, Message:
		return []Role{Facilitator}
	case Assign:
		return []Role{Commander, Facilitator}
	case Tick:
		return []Role{Clock}
	}
	return nil
}

// May reports whether role r may write an entry of kind k.
func May(r Role, k Kind) bool {
	if k == Join || k == Leave {
		return r != Facilitator && r != Clock
	}
	return slices.Contains(allowed(k), r)
}

// Allowed returns the kinds of entry a member of role r may write, for a
// page that shows only what its member may do.
func Allowed(r Role) []Kind {
	var out []Kind
	for _, k := range []Kind{Start, Pause, Speed, Step, Decision, Status, Note, Assign, Leave} {
		if May(r, k) {
			out = append(out, k)
		}
	}
	return out
}

// checkRole refuses an entry its writer's role may not write, naming the
// roles that may.
func checkRole(e Entry) error {
	if May(e.Role, e.Kind) {
		return nil
	}
	return &RoleError{Kind: e.Kind, Role: e.Role, Allowed: allowed(e.Kind)}
}
