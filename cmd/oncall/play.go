package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/oncall-sim/oncall/dsl/policy"
	"github.com/oncall-sim/oncall/dsl/scenario"
	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/scripts"
	"github.com/oncall-sim/oncall/shift"
	"github.com/oncall-sim/oncall/web"
)

// PlayCmd serves the web console.
type PlayCmd struct {
	Addr      string     `default:"127.0.0.1:8080" help:"Address to listen on (loopback by default; the console has no accounts, so keep it off public networks)." placeholder:"HOST:PORT"`
	Scenarios string     `help:"Also offer the .lua scenarios of this folder." placeholder:"DIR"`
	AllowHost []string   `name:"allow-host" sep:"," help:"Also answer requests that reach the console by this host name (repeat it or separate names with commas): the name a class types, or the one a proxy in front of the console passes on. Without it the console answers only its IP addresses and localhost, so that no other web site can reach it through a name of its own (DNS rebinding)." placeholder:"NAME"`
	Data      string     `help:"Keep game days and their results in this SQLite file (made if need be), or in the PostgreSQL database of a postgres:// URL that several consoles share (default: in memory, lost on restart). A JSON file of an earlier oncall is imported once into a .db beside it." placeholder:"FILE|URL"`
	MaxMemory byteSize   `name:"max-memory" default:"256MiB" help:"Memory the console may use, e.g. 512MiB (its resident size; the Go runtime's soft limit is 7/8 of it): the shifts in play hold at most 3/8 (past it the least recently used are replayed when next asked for), the runs being stepped or built a quarter (one shift at most ${session_memory}), the requests being read and the connections a sixteenth each; a request past its share waits its turn, then gets a 503 with Retry-After (default 256MiB)." placeholder:"SIZE"`
	Budget    LimitFlags `embed:""`
}

// minMaxMemory is the least --max-memory takes: room for a few shifts of a
// day beside the console's own needs.
const minMaxMemory = 32 << 20

// Help shows examples under the flags.
func (PlayCmd) Help() string {
	return `Examples:
  oncall play                            the console on http://127.0.0.1:8080/
  oncall play --addr 127.0.0.1:9000      another port
  oncall play --scenarios ./my-scenarios the built-in scenarios and those of a folder
  oncall play --data gamedays.db         game days kept in a SQLite file across restarts
  oncall play --addr 0.0.0.0:8080 --allow-host oncall.school.example
                                         a class on the network, reaching it by a name
  oncall play --data postgres://oncall@db.school.example/oncall
                                         several consoles behind a load balancer, one database
                                         (the password from PGPASSWORD or ~/.pgpass, not the URL)

Stop it with Ctrl-C. A shift in progress survives a restart: the page keeps
its scenario, seed and decisions and the server replays them. Game days are
listed, exported and deleted with oncall gameday; docs/gameday.md says what
is stored.`
}

// Run implements the subcommand.
//
// It branches on each flag and input that may fail before the console serves
// (budget, --max-memory, scenarios, scripts' policies, --data, --allow-host,
// --addr), then on how the server stops (it fails, or an interrupt shuts it
// down): the command's start-up sequence, each step with its own message.
func (c *PlayCmd) Run(env *Env) error {
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	if c.MaxMemory < minMaxMemory {
		return usageError("--max-memory %s: it takes %s or more (default 256MiB)", budget.BytesText(int64(c.MaxMemory)), budget.BytesText(minMaxMemory))
	}
	scs, err := c.scenarios(env, limits)
	if err != nil {
		return err
	}
	pols, err := scriptPolicies()
	if err != nil {
		return failure("the policies of scripts/ do not load: %v", err)
	}
	var results gameday.Store
	if c.Data != "" {
		if results, err = openGameDays(env, c.Data, false); err != nil {
			return err
		}
		defer results.Close()
	}
	hosts, err := allowedHosts(c.AllowHost, c.Addr)
	if err != nil {
		return err
	}
	srv, err := web.New(web.Options{
		Scenarios: scs, Policies: pols, Compile: compilePolicy, Results: results, AllowHosts: hosts, Limits: limits,
		Memory: int64(c.MaxMemory),
		Log:    func(format string, args ...any) { fmt.Fprintf(env.Stderr, format+"\n", args...) },
	})
	if err != nil {
		if strings.Contains(err.Error(), "two scenarios") {
			return usageError("--scenarios %s: %v", c.Scenarios, err)
		}
		return failure("%v", err)
	}
	// The runtime collects harder as its memory nears the bound, rather
	// than letting the heap grow to twice what is live; its limit leaves
	// an eighth for what it does not count (the binary's code, mapped as
	// it runs).
	debug.SetMemoryLimit(int64(c.MaxMemory) - int64(c.MaxMemory)/8)
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return usageError("--addr %s: %v", c.Addr, err)
	}
	hs := &http.Server{Handler: srv.Handler(), ConnContext: srv.ConnContext, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(srv.Listener(ln)) }()
	if exposed(ln.Addr()) {
		fmt.Fprintf(env.Stderr, "oncall: warning: --addr %s is reachable from other machines, and the console has no login: anyone who reaches it can play and post game-day results\n", c.Addr)
	}
	printURLs(env, ln.Addr())
	select {
	case err := <-served:
		return failure("the server stopped: %v", err)
	case <-env.Interrupt:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return failure("stopping the server: %v", err)
	}
	fmt.Fprintln(env.Stdout, "oncall: stopped")
	return nil
}

// scenarios loads the built-in scenarios and those of --scenarios, free
// play last: the page opens on the first scenario, and the seed scenarios
// are the ones with a story. A local scenario that does not load is left
// out with a message; a folder that cannot be read is a usage error.
func (c *PlayCmd) scenarios(env *Env, limits budget.Limits) ([]web.Scenario, error) {
	progs, err := scenario.Builtins(scenario.Options{Limits: limits})
	if err != nil {
		return nil, failure("the built-in scenarios do not load: %v", err)
	}
	if c.Scenarios != "" {
		local, err := scenario.LoadDir(c.Scenarios, scenario.Options{Limits: limits})
		if err != nil && local == nil {
			return nil, usageError("--scenarios %s: %v", c.Scenarios, err)
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "oncall: some scenarios of %s do not load and are left out:\n%s\n", c.Scenarios, renderErr(err))
		}
		progs = append(progs, local...)
	}
	var scs, free []web.Scenario
	for _, p := range progs {
		if p.ID() == "free-play" {
			free = append(free, p)
		} else {
			scs = append(scs, p)
		}
	}
	return append(scs, free...), nil
}

// scriptPolicies lists the policies of scripts/, named by their path
// without .rules: "bad-deploy" (a scenario's reference), "examples/...".
func scriptPolicies() ([]web.PolicySource, error) {
	var out []web.PolicySource
	err := fs.WalkDir(scripts.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return err
		}
		b, err := scripts.Files.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, web.PolicySource{Name: strings.TrimSuffix(path, ".rules"), Source: string(b)})
		return nil
	})
	return out, err
}

// compilePolicy compiles a policy for the console; its errors are the
// diagnostics `oncall check` prints.
func compilePolicy(filename, src string) (shift.Policy, error) {
	p, err := policy.Compile(filename, []byte(src))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// allowedHosts are the names the console answers besides its addresses:
// those of --allow-host, and the name of --addr when it is one.
func allowedHosts(names []string, addr string) ([]string, error) {
	for _, n := range names {
		if err := web.CheckHostName(n); err != nil {
			return nil, usageError("--allow-host %s: %v", n, err)
		}
	}
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && net.ParseIP(host) == nil {
		names = append(names, host)
	}
	return names, nil
}

// exposed reports whether the console listens beyond this machine.
func exposed(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return !ok || !t.IP.IsLoopback()
}

// printURLs prints where to open the console: here, then from the network.
func printURLs(env *Env, a net.Addr) {
	urls := consoleURLs(a, net.InterfaceAddrs)
	fmt.Fprintf(env.Stdout, "oncall: the console is at %s (Ctrl-C to stop)\n", urls[0])
	if len(urls) > 1 {
		fmt.Fprintf(env.Stdout, "oncall: from other machines of the network: %s\n", strings.Join(urls[1:], " "))
	}
}

// consoleURLs are the addresses to open the console at: the listener's
// own, or, when it listens on every address (0.0.0.0, ::), this machine's
// loopback first, then each address of its interfaces that another
// machine can reach, which a class on a LAN types. Link-local IPv6
// addresses are left out: they need a zone a browser will not take.
func consoleURLs(a net.Addr, interfaces func() ([]net.Addr, error)) []string {
	t, ok := a.(*net.TCPAddr)
	if !ok || !t.IP.IsUnspecified() {
		return []string{"http://" + a.String() + "/"}
	}
	port := strconv.Itoa(t.Port)
	urls := []string{"http://" + net.JoinHostPort("127.0.0.1", port) + "/"}
	addrs, err := interfaces()
	if err != nil {
		return urls
	}
	v4 := t.IP.To4() != nil
	for _, ad := range addrs {
		n, ok := ad.(*net.IPNet)
		if !ok || n.IP.IsLoopback() || n.IP.IsLinkLocalUnicast() || n.IP.IsLinkLocalMulticast() || (v4 && n.IP.To4() == nil) {
			continue
		}
		urls = append(urls, "http://"+net.JoinHostPort(n.IP.String(), port)+"/")
	}
	return urls
}
