package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/internal/luachunk"
)

// A run whose scenario{} passes what seed 0's passed gets seed 0's
// declaration without reading it again; one whose table differs, by a
// value drawn from the stream or by where the call stands, reads its own.
func TestDeclaredOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string // the chunk of testdata/declared.lua, spaces for its hyphens
		reused bool
	}{
		{"the same table", true},
		{"a draw", false},
		{"a draw in a nested table", false},
		{"a line of its own", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(luachunk.Src(t, "testdata/declared.lua", strings.ReplaceAll(tc.name, " ", "-")))
			p, err := Compile("d.lua", src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sameAsSeed0 := 0
			for seed := uint32(1); seed <= 20; seed++ {
				sc, setup, err := p.Instance(nil, seed)
				if err != nil {
					t.Fatal(err)
				}
				fresh, err := Compile("d.lua", src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := fresh.Instance(nil, seed)
				if err != nil {
					t.Fatal(err)
				}
				got, wantDecl := *sc.(*run).decl, *want.(*run).decl
				got.title, wantDecl.title = nil, nil
				if fmt.Sprint(got) != fmt.Sprint(wantDecl) || setup.BudgetLeft != want.(*run).decl.setup.BudgetLeft {
					t.Fatalf("seed %d declares %+v, on a program of its own %+v", seed, got, wantDecl)
				}
				if reflect.ValueOf(sc.(*run).decl.title).Pointer() == reflect.ValueOf(p.decl.title).Pointer() {
					sameAsSeed0++
				}
			}
			if reused := sameAsSeed0 == 20; reused != tc.reused {
				t.Fatalf("%d of 20 seeds reused seed 0's declaration", sameAsSeed0)
			}
		})
	}
}
