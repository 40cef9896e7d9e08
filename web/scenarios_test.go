package web

import (
	"slices"
	"strings"
	"testing"
)

// The menu lists the scenarios in their order, free play last unless it
// is one of them; two of one id are refused with the id to rename.
func TestNewListsScenariosOnce(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.order, []string{"free-play"}) {
		t.Errorf("with no scenario the menu is %v, want [free-play]", s.order)
	}
	s, err = New(Options{Scenarios: []Scenario{FreePlay{}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.order, []string{"free-play"}) {
		t.Errorf("with free play given the menu is %v, want it once", s.order)
	}
	_, err = New(Options{Scenarios: []Scenario{FreePlay{}, FreePlay{}}})
	if err == nil || !strings.Contains(err.Error(), `two scenarios have the id "free-play"`) {
		t.Errorf("two scenarios of one id: err = %v, want it to name the id", err)
	}
}
