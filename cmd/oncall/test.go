package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/expect"
)

// TestCmd runs test files: claims about a scenario and policies.
type TestCmd struct {
	Paths   []string `arg:"" optional:"" name:"FILE|DIR" help:"Test files (.claims) and folders to look for them in, recursively (default: the current folder)."`
	Jobs    int      `short:"j" help:"Test files run at once (default: one per core); the output is in the order of the files whatever it is." placeholder:"N"`
	Verbose bool     `short:"v" help:"Print every claim, those that hold too."`
}

// Help shows the format and an example under the flags.
func (TestCmd) Help() string {
	return `A test file (name.claims) names a scenario, seeds, policies and claims,
each a sentence and one check, indented below it:

  scenario bad-deploy                      # a built-in's id, or a .lua file
  seeds 1-50
  policy rollback = examples/rollback-on-page.rules  # a file: from this file's folder, or oncall's own
  policy scale:                            # or rules, indented
    rule "the largest fleet"
      when min_instances < 40
      do   set_min_instances(40)
  claim with no policy the page fires 5 to 15 minutes after the deploy
    every none.first_page - none.deploy_minute >= 5 && none.first_page - none.deploy_minute <= 15
  claim rolling back when paged saves 80 % of the budget the build spends
    median rollback.budget_used / none.budget_used <= 0.2
  claim rolling back when paged is the textbook answer
    grade rollback >= 90 %
  claim more instances are worse than rolling back
    grade scale < rollback

"every EXPR" must hold on every seed, "median EXPR OP NUMBER" on the median
of the seeds; a check reads each run's figures as POLICY.figure (none and
reference are always there; deploy_minute, page_minute and the other
KIND_minute give the minute of an event). "grade POLICY OP NUMBER %",
"grade POLICY OP POLICY" and "grade POLICY is worse than none" grade the
policy as oncall grade does, against the scenario's reference recorded on
the file's seeds. docs/goldens.md documents the format.

A test file has one budget for all its runs: at most 20,000 runs and
2,000,000 minutes of the model (refused at its seeds line before any runs),
90,000,000 steps of its code over every run, and 100 policies. A policy it
names ends with .rules; a link, a named pipe or a device is refused unread.

With no FILE or DIR, every .claims file under the current folder is run,
as go test ./... does (folders named testdata, or starting with . or _,
are left out). A failed claim is printed with file:line, what was measured
and the figures of its worst seeds; the last line counts the claims that
hold and those that do not ("12 tests passed, 1 failed").

Examples:
  oncall test
  oncall test scenarios/bad-deploy.claims -v
  oncall test course/ -j 2

Exit codes: 0 every claim holds · 1 some claim does not · 2 a test file does not load, or none was found.`
}

// Run implements the subcommand.
func (c *TestCmd) Run(env *Env) error {
	if c.Jobs < 0 {
		return usageError("--jobs %d: it takes the number of test files run at once, 1 or more (0 or absent: one per core)", c.Jobs)
	}
	jobs := c.Jobs
	if jobs == 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := testFiles(paths)
	if err != nil {
		return usageError("%v", err)
	}
	if len(files) == 0 {
		return usageError("no test file (*%s) under %s", expect.Ext, strings.Join(paths, ", "))
	}
	ctx, cancel := interruptible(env)
	defer cancel()
	passed, failed, broken := runTestFiles(ctx, env.Stdout, files, jobs, c.Verbose)
	if err := ctx.Err(); err != nil {
		return &exitError{code: 130, msg: "oncall: interrupted"}
	}
	fmt.Fprintf(env.Stdout, "%s passed, %d failed\n", plural(passed, "test"), failed)
	switch {
	case broken > 0:
		return &exitError{code: 2}
	case failed > 0:
		return &exitError{code: 1}
	}
	return nil
}

// runTestFiles runs files, jobs at once, and writes each one's output to w
// in the files' order as soon as it and those before it are done; it
// returns the claims passed and failed, and the files that did not run.
func runTestFiles(ctx context.Context, w io.Writer, files []string, jobs int, verbose bool) (passed, failed, broken int) {
	// A single file gets every worker for its seeds; several run a worker
	// each, jobs at once.
	perFile := 1
	if len(files) == 1 {
		perFile = jobs
	}
	type outcome struct {
		out            bytes.Buffer
		passed, failed int
		broken         bool
	}
	outs := make([]outcome, len(files))
	done := make([]chan struct{}, len(files))
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(files)) {
		wg.Go(func() {
			for i := range next {
				o := &outs[i]
				o.passed, o.failed, o.broken = runTestFile(ctx, &o.out, files[i], expect.Options{Jobs: perFile}, verbose)
				close(done[i])
			}
		})
	}
	go func() {
		for i := range files {
			next <- i
		}
		close(next)
	}()
	for i := range files {
		<-done[i]
		w.Write(outs[i].out.Bytes())
		passed += outs[i].passed
		failed += outs[i].failed
		if outs[i].broken {
			broken++
		}
	}
	wg.Wait()
	return passed, failed, broken
}

// runTestFile loads and runs one test file, writing what failed (every
// claim with verbose) to w. A file that does not load or run counts as
// one failed test, and broken.
func runTestFile(ctx context.Context, w *bytes.Buffer, path string, o expect.Options, verbose bool) (passed, failed int, broken bool) {
	f, err := expect.Load(path)
	if err == nil {
		var res *expect.Result
		if res, err = f.Run(ctx, o); err == nil {
			res.Write(w, verbose)
			return res.Passed(), res.Failed(), false
		}
	}
	var l dsl.List
	if errors.As(err, &l) {
		fmt.Fprintln(w, l.Render())
	} else {
		fmt.Fprintf(w, "%s: %v\n", path, err)
	}
	fmt.Fprintf(w, "FAIL %s: does not load\n", path)
	return 0, 1, true
}

// testFiles lists the test files of paths in order: a file named, a
// folder's .claims files walked in lexical order, leaving out folders
// named testdata or starting with . or _, as go test ./... does.
func testFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file or folder", p)
		}
		if !st.IsDir() {
			if !strings.HasSuffix(p, expect.Ext) {
				return nil, fmt.Errorf("%s is not a test file: a test file's name ends with %s (oncall check checks scenarios and policies)", p, expect.Ext)
			}
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if path != p && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, expect.Ext) && d.Type().IsRegular() {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return slices.Compact(files), nil
}
