package grade

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A class's JUnit file holds every student's report, and each suite the
// student's rank, which only the whole class gives: so that a class graded
// in batches need not keep its reports (GradeClassInBatches), each
// student's report is written as JUnit suites into a spool as its batch
// is graded, as a student may read it (Report.ForStudent), and
// Class.WriteJUnit reads them back, a student at a time, once the class is
// ranked. The spool is a temporary file (NewClassJUnit) or, for a class
// whose reports are kept, memory.

// ClassJUnit is the spool of a class's JUnit report.
type ClassJUnit struct {
	file *os.File     // the spool; nil: mem
	mem  bytes.Buffer // the spool in memory
	out  *bufio.Writer
	enc  *xml.Encoder
	// suites are how many suites each student's report has, in the
	// class's order; tests, failures and errors their sums.
	suites                  []int
	tests, failures, errors int
}

// NewClassJUnit makes the spool of a class's JUnit report in a temporary
// file of dir (the system's when ""), which Close removes.
func NewClassJUnit(dir string) (*ClassJUnit, error) {
	f, err := os.CreateTemp(dir, "oncall-class-*.xml")
	if err != nil {
		return nil, fmt.Errorf("a temporary file for the class's JUnit report: %v", err)
	}
	j := &ClassJUnit{file: f}
	j.out = bufio.NewWriter(f)
	j.enc = xml.NewEncoder(j.out)
	return j, nil
}

// memoryJUnit is the spool of a class whose reports are kept.
func memoryJUnit() *ClassJUnit {
	j := &ClassJUnit{}
	j.out = bufio.NewWriter(&j.mem)
	j.enc = xml.NewEncoder(j.out)
	return j
}

// Close removes the spool's file.
func (j *ClassJUnit) Close() error {
	if j == nil || j.file == nil {
		return nil
	}
	err := j.file.Close()
	if rerr := os.Remove(j.file.Name()); err == nil {
		err = rerr
	}
	return err
}

// add writes a student's report, the next of the class, into the spool.
func (j *ClassJUnit) add(rep *Report) error {
	var buf bytes.Buffer
	if err := rep.WriteJUnit(&buf); err != nil {
		return err
	}
	var own junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &own); err != nil {
		return err
	}
	for _, suite := range own.Suites {
		if err := j.enc.EncodeElement(suite, xml.StartElement{Name: xml.Name{Local: "testsuite"}}); err != nil {
			return fmt.Errorf("the class's JUnit report: %v", err)
		}
	}
	j.suites = append(j.suites, len(own.Suites))
	j.tests += own.Tests
	j.failures += own.Failures
	j.errors += own.Errors
	return nil
}

// reader returns the spool from its start, once every student is in it.
func (j *ClassJUnit) reader() (io.Reader, error) {
	if err := j.enc.Flush(); err != nil {
		return nil, err
	}
	if err := j.out.Flush(); err != nil {
		return nil, err
	}
	if j.file == nil {
		return bytes.NewReader(j.mem.Bytes()), nil
	}
	if _, err := j.file.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return bufio.NewReader(j.file), nil
}

// WriteJUnit writes the class as one JUnit XML file, for a CI that shows a
// class: each student's report as Report.WriteJUnit writes it for the
// student (Report.ForStudent), a testsuite a student and scenario named
// "student: scenario", with the student's rank, total and whether they are
// flagged as properties (beside the report's own, flag.<kind> for each
// pattern that looks like gaming), and a testcase "flags" that fails where
// the student's rules look like gaming on that scenario.
func (c *Class) WriteJUnit(w io.Writer) error {
	j, err := c.junitSpool()
	if err != nil {
		return err
	}
	src, err := j.reader()
	if err != nil {
		return fmt.Errorf("the class's JUnit report: %v", err)
	}
	dec := xml.NewDecoder(src)
	bw := bufio.NewWriter(w)
	if _, err := io.WriteString(bw, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	if err := enc.EncodeToken(c.junitStart(j)); err != nil {
		return err
	}
	id := 0
	for i := range c.Students {
		for n := 0; n < j.suites[i]; n++ {
			var suite junitSuite
			if err := dec.Decode(&suite); err != nil {
				return fmt.Errorf("the class's JUnit report: reading it back: %v", err)
			}
			c.studentSuite(&suite, &c.Students[i])
			suite.ID = id
			id++
			if err := enc.EncodeElement(suite, xml.StartElement{Name: xml.Name{Local: "testsuite"}}); err != nil {
				return err
			}
		}
	}
	if err := enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "testsuites"}}); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	if _, err := io.WriteString(bw, "\n"); err != nil {
		return err
	}
	return bw.Flush()
}

// junitSpool is the spool the class was graded with, or, when it kept
// its reports, one in memory made of them now.
func (c *Class) junitSpool() (*ClassJUnit, error) {
	j := c.junit
	if j == nil {
		j = memoryJUnit()
		for i := range c.Students {
			s := &c.Students[i]
			if s.Report == nil {
				return nil, errors.New("the class kept no report to write as JUnit: grade it with ClassOptions.JUnit")
			}
			if err := j.add(s.Report.ForStudent(c.scenarios)); err != nil {
				return nil, err
			}
		}
	}
	if len(j.suites) != len(c.Students) {
		return nil, fmt.Errorf("the class's JUnit report holds %d students of %d", len(j.suites), len(c.Students))
	}
	return j, nil
}

// junitStart is the class's testsuites element: its name (the references
// by their file's name), and its counts,
// the students' reports' with the testcase "flags" each suite gains.
func (c *Class) junitStart(j *ClassJUnit) xml.StartElement {
	tests, failures := j.tests, j.failures
	for i, s := range c.Students {
		tests += j.suites[i]
		flagged := map[string]bool{}
		for _, g := range s.Gaming {
			flagged[g.Scenario] = true
		}
		failures += len(flagged)
	}
	ref := c.Reference
	if strings.ContainsAny(ref, `/\`) {
		ref = filepath.Base(ref) // as Report.ForStudent names it
	}
	attr := func(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }
	return xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{
		attr("name", "oncall grade --class against "+ref),
		attr("tests", strconv.Itoa(tests)), attr("failures", strconv.Itoa(failures)), attr("errors", strconv.Itoa(j.errors)),
		attr("time", "0.000"),
	}}
}

// studentSuite makes a suite of a student's report one of the class's.
func (c *Class) studentSuite(suite *junitSuite, s *ClassStudent) {
	scenario := suite.Name
	suite.Name, suite.Package = s.Name+": "+scenario, "oncall."+s.Name
	suite.Properties = append(suite.Properties,
		junitProperty{"student", s.Name}, junitProperty{"rank", strconv.Itoa(s.Rank)},
		junitProperty{"total", points(s.Score)}, junitProperty{"class_max_score", points(c.MaxScore)},
		junitProperty{"flagged", strconv.FormatBool(s.Flagged())})
	var flags []string
	for _, g := range s.Gaming { // the report's own suite has them as properties flag.<kind>
		if g.Scenario == scenario {
			flags = append(flags, g.Text)
		}
	}
	tc := junitCase{Name: "flags", Classname: "oncall." + scenario, Time: "0"}
	if len(flags) > 0 {
		tc.Failure = &junitFailure{Type: "flag", Message: fmt.Sprintf("%d pattern(s) that look like gaming rather than on-call work", len(flags)), Text: strings.Join(flags, "\n") + "\n"}
		suite.Failures++
	}
	suite.Cases = append(suite.Cases, tc)
	suite.Tests = len(suite.Cases)
}
