package grade_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/oncall-sim/oncall/batch/batchtest"
	"github.com/oncall-sim/oncall/grade"
)

// A class graded two students at a time, keeping no report, writes the
// same class report as one graded at once that keeps them, in every class
// format: the rows, the counts and medians, the ranks (given once every
// batch is in) and the JUnit file, whose reports it gathered in a spool
// as each batch was graded. Each student is handed over once, in order,
// with its report; the spool's file is gone once closed.
func TestGradeClassInBatchesWritesWhatAClassAtOnceWrites(t *testing.T) {
	refs := goReferences(t, []uint32{1, 2, 3})
	students := []grade.Student{
		{Name: "ref", File: "class/ref.rules", Policy: batchtest.FiveRules()},
		{Name: "late", File: "class/late.rules", Policy: lateRollback()},
		{Name: "broken", File: "class/broken.rules", Error: "class/broken.rules:1:1: not a rule"},
		{Name: "late-2", File: "class/late-2.rules", Policy: lateRollback()},
		{Name: "ref-2", File: "class/ref-2.rules", Policy: batchtest.FiveRules()},
	}
	o := grade.GradeOptions{Model: testModel, Scenarios: []grade.Scenario{goScenario(t)}, References: refs, ReferenceName: "refs/test.json"}
	whole, err := grade.GradeClass(context.Background(), o, students)
	if err != nil {
		t.Fatal(err)
	}
	spool, err := grade.NewClassJUnit(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var handed []int
	batched, err := grade.GradeClassInBatches(context.Background(), o, students, grade.ClassOptions{
		Batch: 2, JUnit: spool,
		Load: func(i int) grade.Student { return students[i] },
		Each: func(i int, s grade.ClassStudent) error {
			if s.Report == nil || s.Name != students[i].Name {
				t.Errorf("student %d handed over as %q, report %v", i, s.Name, s.Report != nil)
			}
			handed = append(handed, i)
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(handed) != len(students) || handed[0] != 0 || handed[4] != 4 {
		t.Errorf("handed over %v, want 0 to 4 in order", handed)
	}
	for _, s := range batched.Students {
		if s.Report != nil {
			t.Errorf("%s: the batched class kept its report", s.Name)
		}
	}
	if whole.Students[0].Rank != 1 || whole.Students[2].Rank != 5 || whole.Students[1].Rank != whole.Students[3].Rank {
		t.Errorf("ranks of the class: %+v", whole.Students)
	}
	for _, format := range grade.ClassFormats {
		var a, b bytes.Buffer
		if err := whole.Write(&a, format); err != nil {
			t.Fatal(err)
		}
		if err := batched.Write(&b, format); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("-f %s: the class in batches writes\n%s\nat once\n%s", format, b.String(), a.String())
		}
		if format == "junit" && (bytes.Contains(a.Bytes(), []byte("class/")) || bytes.Contains(a.Bytes(), []byte("refs/"))) {
			t.Errorf("the class's JUnit names a folder: it names each student's file and the references by their names alone\n%s", a.String())
		}
	}
	name := grade.SpoolFile(spool)
	if err := spool.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("the spool %s is still there after Close: %v", name, err)
	}
}
