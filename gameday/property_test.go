package gameday

import (
	"errors"
	"testing"

	"pgregory.net/rapid"
)

// TestPropertyModel: any sequence of creations, results and deletions
// leaves the store as a plain model says: each game day lists one result a
// name, in the order names first sent, with the last result sent.
func TestPropertyModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, err := OpenMemory()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		model := map[string][]Result{}
		ids := rapid.SampledFrom([]string{"a", "b", "c"})
		names := rapid.SampledFrom([]string{"Ana", "Budi", "Cem", "Dana"})
		for i := range rapid.IntRange(1, 40).Draw(t, "steps") {
			id := ids.Draw(t, "id")
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0:
				err := s.Create(ctx, GameDay{ID: id, Scenario: "surge", Seed: uint32(i)})
				_, ok := model[id]
				if ok != errors.Is(err, ErrExists) || (!ok && err != nil) {
					t.Fatalf("create %s: %v", id, err)
				}
				if !ok {
					model[id] = []Result{}
				}
			case 1:
				err := s.Delete(ctx, id)
				if _, ok := model[id]; ok == errors.Is(err, ErrNotFound) || (ok && err != nil) {
					t.Fatalf("delete %s: %v", id, err)
				}
				delete(model, id)
			default:
				r := Result{Name: names.Draw(t, "name"), Decisions: i}
				_, err := s.Add(ctx, id, r)
				rs, ok := model[id]
				if ok == errors.Is(err, ErrNotFound) || (ok && err != nil) {
					t.Fatalf("add to %s: %v", id, err)
				}
				if ok {
					model[id] = replace(rs, r)
				}
			}
		}
		for id, want := range model {
			g, err := s.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Results) != len(want) {
				t.Fatalf("%s: %d results, model %d", id, len(g.Results), len(want))
			}
			for i := range want {
				if g.Results[i].Name != want[i].Name || g.Results[i].Decisions != want[i].Decisions {
					t.Fatalf("%s result %d: %s/%d, model %s/%d", id, i, g.Results[i].Name, g.Results[i].Decisions, want[i].Name, want[i].Decisions)
				}
			}
		}
		list, err := s.List(ctx)
		if err != nil || len(list) != len(model) {
			t.Fatalf("list: %d game days, model %d (%v)", len(list), len(model), err)
		}
		for _, g := range list {
			if len(model[g.ID]) != g.Results {
				t.Fatalf("list: %s has %d results, model %d", g.ID, g.Results, len(model[g.ID]))
			}
		}
	})
}

func replace(rs []Result, r Result) []Result {
	for i := range rs {
		if rs[i].Name == r.Name {
			rs[i] = r
			return rs
		}
	}
	return append(rs, r)
}
