package team

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestRolesAreEnforced: each kind of entry is written by the roles that
// may, and a member of another role is refused with the roles that may.
func TestRolesAreEnforced(t *testing.T) {
	want := map[Kind][]Role{
		Start: {Commander, Facilitator}, Pause: {Commander, Facilitator}, Speed: {Commander, Facilitator},
		Step: {Commander}, Decision: {Commander, Operations}, Status: {Communications}, Note: {Scribe},
		Inject: {Facilitator}, Message: {Facilitator}, Assign: {Commander, Facilitator}, Tick: {Clock},
	}
	for k, roles := range want {
		for _, r := range append(Roles(), Facilitator, Clock) {
			if got := May(r, k); got != contains(roles, r) {
				t.Errorf("May(%s, %s) = %v", r, k, got)
			}
		}
	}
	if got := Allowed(Observer); !reflect.DeepEqual(got, []Kind{Leave}) {
		t.Errorf("an observer may %v, want to leave only", got)
	}
	if got := Allowed(Operations); !reflect.DeepEqual(got, []Kind{Decision, Leave}) {
		t.Errorf("operations may %v", got)
	}
	st := NewState(Header{Minutes: 120})
	err := st.Check(Entry{Kind: Decision, Role: Observer, Control: "rollback"})
	var re *RoleError
	if !errors.As(err, &re) || !errors.Is(err, ErrRole) || err.Error() != "the observer may not decide: that is for the commander or the operations" {
		t.Errorf("an observer's decision: %v", err)
	}
}

func contains(rs []Role, r Role) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

func applied(t *testing.T, st *State, e Entry) {
	t.Helper()
	e.Seq = st.Seq + 1
	if err := st.Check(e); err != nil {
		t.Fatalf("%s: %v", e.Kind, err)
	}
	if err := st.Apply(e); err != nil {
		t.Fatal(err)
	}
}

// TestJoining: a full team says so, a name taken offers the next free
// one, a second commander is refused, and a text is bounded.
func TestJoining(t *testing.T) {
	st := NewState(Header{Minutes: 120, MaxMembers: 3})
	applied(t, st, Entry{Kind: Join, By: "a", Role: Commander, Member: "a", Name: "Alex", Assigned: Commander, Token: "x"})
	err := st.Check(Entry{Kind: Join, By: "b", Role: Operations, Member: "b", Name: "Alex", Assigned: Operations, Token: "y"})
	var ne *NameError
	if !errors.As(err, &ne) || ne.Free != "Alex (2)" {
		t.Errorf("a name taken: %v", err)
	}
	err = st.Check(Entry{Kind: Join, By: "b", Role: Commander, Member: "b", Name: "Budi", Assigned: Commander, Token: "y"})
	var ce *CommanderError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "Alex") {
		t.Errorf("a second commander: %v", err)
	}
	applied(t, st, Entry{Kind: Join, By: "b", Role: Operations, Member: "b", Name: "Budi", Assigned: Operations, Token: "y"})
	applied(t, st, Entry{Kind: Join, By: "c", Role: Observer, Member: "c", Name: "Citra", Assigned: Observer, Token: "z"})
	if err := st.Check(Entry{Kind: Join, By: "d", Role: Scribe, Member: "d", Name: "Dana", Assigned: Scribe, Token: "w"}); !errors.Is(err, ErrFull) {
		t.Errorf("a fourth member of three: %v", err)
	}
	if err := st.Check(Entry{Kind: Note, Role: Scribe, Text: strings.Repeat("é", MaxText+1)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a note too long: %v", err)
	}
	if m, ok := st.MemberByToken("y"); !ok || m.Name != "Budi" {
		t.Errorf("the member of token y: %+v %v", m, ok)
	}
	if _, ok := st.MemberByToken("nope"); ok {
		t.Error("an unknown token found a member")
	}
}

// TestCommanderLeaving: the commander's leaving stops the clock; the
// facilitator names another, who takes the role and gives theirs to the
// one before (none here); a commander hands the role on by a swap.
func TestCommanderLeaving(t *testing.T) {
	st := NewState(Header{Minutes: 120})
	applied(t, st, Entry{Kind: Join, By: "a", Role: Commander, Member: "a", Name: "Alex", Assigned: Commander, Token: "x"})
	applied(t, st, Entry{Kind: Join, By: "b", Role: Operations, Member: "b", Name: "Budi", Assigned: Operations, Token: "y"})
	applied(t, st, Entry{Kind: Assign, By: "a", Role: Commander, Member: "b", Assigned: Commander})
	if a, _ := st.Member("a"); a.Role != Operations {
		t.Errorf("the commander who handed on is %s, want operations", a.Role)
	}
	applied(t, st, Entry{Kind: Start, By: "b", Role: Commander, Speed: 5})
	applied(t, st, Entry{Kind: Leave, By: "b", Role: Commander, Member: "b"})
	if st.Running {
		t.Error("the clock runs without a commander")
	}
	if _, ok := st.Commander(); ok {
		t.Error("a commander who left is still commander")
	}
	if err := st.Check(Entry{Kind: Start, By: "a", Role: Operations}); !errors.Is(err, ErrRole) {
		t.Errorf("operations starting the clock: %v", err)
	}
	applied(t, st, Entry{Kind: Assign, By: "facilitator", Role: Facilitator, Member: "a", Assigned: Commander})
	applied(t, st, Entry{Kind: Start, By: "a", Role: Commander})
	if !st.Running || st.Speed != 5 {
		t.Errorf("running %v at %d", st.Running, st.Speed)
	}
	if err := st.Check(Entry{Kind: Assign, By: "a", Role: Commander, Member: "a", Assigned: Observer}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a commander taking another role by itself: %v", err)
	}
}

// TestAfterTheEnd: once the shift reached its last minute a decision, an
// inject or the clock is refused as over; a note is still taken.
func TestAfterTheEnd(t *testing.T) {
	st := NewState(Header{Minutes: 2})
	applied(t, st, Entry{Kind: Join, By: "a", Role: Commander, Member: "a", Name: "Alex", Assigned: Commander, Token: "x"})
	applied(t, st, Entry{Kind: Step, By: "a", Role: Commander})
	applied(t, st, Entry{Kind: Step, By: "a", Role: Commander})
	for _, e := range []Entry{{Kind: Decision, Role: Commander, Control: "rollback"}, {Kind: Inject, Role: Facilitator, Inject: "x"}, {Kind: Step, Role: Commander}} {
		if err := st.Check(e); !errors.Is(err, ErrOver) {
			t.Errorf("%s after the end: %v", e.Kind, err)
		}
	}
	if err := st.Check(Entry{Kind: Message, Role: Facilitator, Text: "well done"}); err != nil {
		t.Error(err)
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"  rolled back\n\tbuild 4.2.0  ": "rolled back build 4.2.0",
		"\x1b[2Jowned\u202e":             "[2Jowned",
		"a\u2028b":                       "a b",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}
