package web

import (
	"embed"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/shift"
)

//go:embed static
var staticFiles embed.FS

// Limits of the server, kept small enough that one client cannot tie it up.
const (
	DefaultMaxSessions = 1000
	DefaultIdle        = 30 * time.Minute
	maxBody            = 256 << 10 // a request body: a pasted policy, or a long shift's decisions to rebuild
	maxStep            = 60        // minutes one step request may advance
)

// Options configure the console.
type Options struct {
	// Scenarios offered, in order. Free play is added when none has its id.
	Scenarios []Scenario
	// Policies offered on autopilot (the files of scripts/), and the
	// compiler of a policy's source; with no compiler there is no autopilot.
	Policies []PolicySource
	Compile  Compiler
	// MaxSessions bounds the shifts held at once (DefaultMaxSessions);
	// Idle is how long an unused one is kept (DefaultIdle).
	MaxSessions int
	Idle        time.Duration
	// Now reads the clock, for idle expiry only (time.Now).
	Now func() time.Time
	// Log receives panics caught by the server, and a note when it is at
	// its memory bound (log.Printf).
	Log func(format string, args ...any)
	// Results keeps game days; nil keeps them in memory, in a store the
	// server opens for its lifetime.
	Results gameday.Store
	// AllowHosts are the host names the console answers besides its IP
	// addresses and localhost: the name a class reaches it by, or the one
	// a proxy in front of it passes on. Any other Host gets a 421.
	AllowHosts []string
	// Limits bound what the scenario's and the policy's code may spend in
	// each run the server computes (zero fields take budget's defaults).
	Limits budget.Limits
	// MaxMemory bounds what the sessions' runs hold all together
	// (DefaultMaxMemory): past it the least recently used are let go and
	// replayed when next asked for. SessionMemory bounds what one session
	// holds and answers (DefaultSessionMemory, and at most MaxMemory).
	// weight.go says how they are weighed.
	MaxMemory, SessionMemory int64
	// Live gives live shifts /metrics shows besides the console's own team
	// game days' (Server.LiveShifts); nil: those alone.
	Live LiveShifts
	// Memory is all the console may use (DefaultMemory, or 8/3 of
	// MaxMemory when only that is set), shared between the sessions at
	// rest (MaxMemory, three eighths of it by default), the work under
	// way, what requests send and the connections (memory.go).
	Memory int64
}

// PolicySource is a policy file the console offers on autopilot.
type PolicySource struct {
	Name   string // the file's name without .rules, e.g. "bad-deploy"
	Source string
}

// Compiler compiles a policy's source; the error is what `oncall check`
// prints. The policy it returns gives a fresh instance for each run.
type Compiler func(filename, src string) (shift.Policy, error)

// Server is the console. Create it with New; it is safe for concurrent use.
type Server struct {
	opts        Options
	gzip        gzipped // the page's fixed answers, compressed
	scenarios   map[string]Scenario
	order       []string
	maxSessions int
	idle        time.Duration
	now         func() time.Time
	logf        func(format string, args ...any)
	static      fs.FS
	results     gameday.Store
	allowHosts  []string
	origins     *http.CrossOriginProtection

	maxMemory, sessionMemory int64
	memTotal                 int64
	mem                      *memory       // the shares of Options.Memory as they are spent (memory.go)
	limits                   budget.Limits // a run's, its memory budget a session's

	mu       sync.Mutex
	sessions map[string]*session
	held     int64 // what the sessions' runs hold (weight.go)

	models modelDraws // the model page's samples of each scenario

	answers sync.Pool // *answerBuffer: the buffers steps write their answers in (stepio.go)

	teamc    teamConsole   // team game days (team.go)
	ruleSlot chan struct{} // a rule file evaluated at a time (alertrules.go)
}

// New prepares a console.
func New(o Options) (*Server, error) {
	s := &Server{
		opts: o, scenarios: map[string]Scenario{},
		maxSessions: o.MaxSessions, idle: o.Idle, now: o.Now, logf: o.Log,
		sessions: map[string]*session{}, results: o.Results,
		origins: http.NewCrossOriginProtection(), ruleSlot: make(chan struct{}, 1),
	}
	for _, name := range o.AllowHosts {
		if err := CheckHostName(name); err != nil {
			return nil, fmt.Errorf("allowed host %v", err)
		}
		s.allowHosts = append(s.allowHosts, hostName(name))
	}
	if s.maxSessions <= 0 {
		s.maxSessions = DefaultMaxSessions
	}
	if s.idle <= 0 {
		s.idle = DefaultIdle
	}
	s.shareMemory(o)
	if s.now == nil {
		s.now = time.Now
	}
	if s.results == nil {
		mem, err := gameday.OpenMemory()
		if err != nil {
			return nil, fmt.Errorf("the in-memory game days: %v", err)
		}
		s.results = mem
	}
	if s.logf == nil {
		s.logf = log.Printf
	}
	if err := s.addScenarios(o.Scenarios); err != nil {
		return nil, err
	}
	if err := i18n.Check(); err != nil {
		return nil, fmt.Errorf("the catalogue does not load: %v", err)
	}
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	s.static = sub
	return s, nil
}

// addScenarios lists scs in the console's menu, in their order, and free
// play after them unless one of them is free play; two of one id are an
// error.
func (s *Server) addScenarios(scs []Scenario) error {
	for _, sc := range scs {
		if _, dup := s.scenarios[sc.ID()]; dup {
			return fmt.Errorf("two scenarios have the id %q: rename one", sc.ID())
		}
		s.scenarios[sc.ID()] = sc
		s.order = append(s.order, sc.ID())
	}
	if _, ok := s.scenarios["free-play"]; !ok {
		s.scenarios["free-play"] = FreePlay{}
		s.order = append(s.order, "free-play")
	}
	return nil
}

// page serves the console's one page at "/".
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	s.serveFile(w, r, "index.html")
}

// file serves an embedded file under /static/.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name == "format.js" {
		// The number formats live with the catalogue, which tests them
		// against its Go twin; the page loads them from here.
		serveBytes(w, r, contentTypes[".js"], i18n.FormatJS())
		return
	}
	if !fs.ValidPath(name) || name == "." || name == "index.html" {
		fail(w, apiError(http.StatusNotFound, "ui.api.no_file", "path", clip(r.URL.Path, 60)))
		return
	}
	s.serveFile(w, r, name)
}

var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".svg":   "image/svg+xml",
	".woff2": "font/woff2",
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	b, err := fs.ReadFile(s.static, name)
	if err != nil {
		fail(w, apiError(http.StatusNotFound, "ui.api.no_file", "path", "/static/"+clip(name, 60)))
		return
	}
	ct, ok := contentTypes[name[strings.LastIndexByte(name, '.'):]]
	if !ok {
		ct = "application/octet-stream"
	}
	serveBytes(w, r, ct, b)
}

func serveBytes(w http.ResponseWriter, r *http.Request, contentType string, b []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// scenario finds a scenario by id; a misspelt id gets a suggestion.
func (s *Server) scenario(id string) (Scenario, error) {
	if sc, ok := s.scenarios[id]; ok {
		return sc, nil
	}
	if id == "" {
		return nil, apiError(http.StatusBadRequest, "ui.api.scenario_missing", "list", strings.Join(s.order, ", "))
	}
	near := spell.Nearest(id, s.order)
	return nil, apiError(http.StatusBadRequest, hinted(near, "ui.api.scenario_unknown", "ui.api.scenario_unknown_hint"), "name", quoted(id, 60), "hint", near, "list", strings.Join(s.order, ", "))
}

// policyNames lists the policies offered, sorted.
func (s *Server) policyNames() []string {
	names := make([]string, len(s.opts.Policies))
	for i, p := range s.opts.Policies {
		names[i] = p.Name
	}
	sort.Strings(names)
	return names
}

// policy compiles an autopilot's policy: one of the list by name, or a
// pasted source. A broken policy is a 422 whose message is the diagnostics.
func (s *Server) policy(a *Autopilot) (shift.Policy, error) {
	if s.opts.Compile == nil {
		return nil, apiError(http.StatusBadRequest, "ui.api.no_compiler")
	}
	switch {
	case a.Policy != "" && a.Source != "":
		return nil, apiError(http.StatusBadRequest, "ui.api.autopilot_both")
	case a.Source != "":
		p, err := s.opts.Compile("pasted.rules", a.Source)
		if err != nil {
			return nil, &httpError{status: http.StatusUnprocessableEntity, msg: rendered(err)}
		}
		return p, nil
	case a.Policy != "":
		for _, p := range s.opts.Policies {
			if p.Name == a.Policy {
				pol, err := s.opts.Compile(p.Name+".rules", p.Source)
				if err != nil {
					return nil, &httpError{status: http.StatusUnprocessableEntity, msg: rendered(err)}
				}
				return pol, nil
			}
		}
		near := spell.Nearest(a.Policy, s.policyNames())
		return nil, apiError(http.StatusBadRequest, hinted(near, "ui.api.policy_unknown", "ui.api.policy_unknown_hint"), "name", quoted(a.Policy, 60), "hint", near, "list", strings.Join(s.policyNames(), ", "))
	}
	return nil, apiError(http.StatusBadRequest, "ui.api.autopilot_none")
}

// rendered writes a policy's diagnostics as `oncall check` prints them:
// file:line:col, the line and a caret.
func rendered(err error) string {
	if r, ok := err.(interface{ Render() string }); ok {
		return r.Render()
	}
	return err.Error()
}
