// Command oncall is the on-call scenario engine: run a shift from the
// terminal, serve the web console, check scenarios and policies, grade them.
//
// Exit codes: 0 success; 1 the run or the grade failed (an error in a
// scenario or a policy while it ran, a failed grade); 2 bad usage or invalid
// input (a flag, a file that does not load).
package main

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/safetext"
	"github.com/oncall-sim/oncall/internal/untrusted"
)

func main() {
	env := &Env{
		Stdout: &screen{safetext.Writer(os.Stdout), os.Stdout}, Stderr: &screen{safetext.Writer(os.Stderr), os.Stderr}, Stdin: os.Stdin,
		Interrupt:  interrupts(),
		RandomSeed: randomSeed,
		Now:        time.Now,
		IsTerminal: isTerminal,
		Create:     func(name string) (WriteCloser, error) { return os.Create(name) },
		ReadFile:   readInput,
	}
	os.Exit(Main(os.Args[1:], env))
}

// interrupts delivers Ctrl-C to the commands that stop cleanly on it (play,
// batch). A command that does not listen, or a second Ctrl-C, ends the
// process with the shell's usual code for an interrupt, 130.
func interrupts() <-chan os.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	stop := make(chan os.Signal, 1)
	go func() {
		s := <-sigs
		stop <- s
		select {
		case <-sigs:
		case <-time.After(3 * time.Second):
		}
		os.Exit(130)
	}()
	return stop
}

// maxInput is the largest file oncall reads: scenarios, policies and
// reference files are a few kilobytes, traces a few megabytes.
const maxInput = untrusted.DefaultMax

// readInput reads a file a user named as package untrusted reads it: a
// link, a folder, a FIFO or a device is refused with its name before it is
// opened (a folder with an error that matches syscall.EISDIR), and so is
// anything larger than maxInput.
func readInput(name string) ([]byte, error) {
	return untrusted.ReadFile(name, maxInput)
}

// randomSeed draws a seed for a run that was given none.
func randomSeed() uint32 {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 1
	}
	return binary.LittleEndian.Uint32(b[:])
}

// screen is a stream of the process that shows what it is sent rather
// than obeys it: the control characters of what a command prints (a
// student's file name, a rule's name, a line a diagnostic quotes) are
// escaped (safetext.Writer), on a terminal and in a file that is later
// shown on one alike. The formats written to standard output carry no
// control character of their own (JSON and XML escape them, the CSV and
// the tables write new lines and tabs, which stay), so that their bytes
// are what their encoders wrote. file is the stream itself, for the
// progress bar, which draws with \r and an escape of its own.
type screen struct {
	io.Writer
	file *os.File
}

// raw returns the stream under a screen, or w itself.
func raw(w io.Writer) io.Writer {
	if s, ok := w.(*screen); ok {
		return s.file
	}
	return w
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f any) bool {
	if s, ok := f.(*screen); ok {
		f = s.file
	}
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// languageVars name the languages of the catalogue for the flags that take
// one, so that the list is written once, in i18n: ${languages} for an
// enum, ${language_list} for a help text.
func languageVars() kong.Vars {
	codes := i18n.Codes()
	last := len(codes) - 1
	return kong.Vars{
		"languages":     strings.Join(codes, ","),
		"language_list": strings.Join(codes[:last], ", ") + " or " + codes[last],
	}
}

// Main parses args, runs the subcommand and returns the exit code. It touches
// the process only through env, so tests call it directly.
func Main(args []string, env *Env) int {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("oncall"),
		kong.Description("An on-call training simulator: a web service, minute by minute, and what your decisions do to it.\n\n"+exitCodes),
		kong.Writers(env.Stdout, env.Stderr),
		kong.Exit(func(code int) { panic(exitPanic(code)) }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Bind(env),
		kong.Vars{"version": version},
		languageVars(),
		limitVars,
		kong.ExplicitGroups([]kong.Group{limitGroup}),
	)
	if err != nil {
		fmt.Fprintln(env.Stderr, "oncall:", err)
		return 2
	}
	code := 0
	func() {
		defer func() {
			if r := recover(); r != nil {
				if c, ok := r.(exitPanic); ok {
					code = int(c)
					return
				}
				panic(r)
			}
		}()
		if len(args) == 0 {
			args = []string{"--help"}
		}
		ctx, err := parser.Parse(args)
		if err != nil {
			fmt.Fprintln(env.Stderr, "oncall:", err)
			code = 2
			return
		}
		if err := ctx.Run(env); err != nil {
			var ee *exitError
			if errors.As(err, &ee) {
				if ee.msg != "" {
					fmt.Fprintln(env.Stderr, ee.msg)
				}
				code = ee.code
				return
			}
			fmt.Fprintln(env.Stderr, "oncall:", err)
			code = 1
		}
	}()
	return code
}

type exitPanic int

// version is the program's version, shown by --version.
const version = "oncall 0.1.0"

const exitCodes = `Exit codes: 0 success · 1 the run or the grade failed · 2 bad usage or input that does not load.`
