package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
	"github.com/oncall-sim/oncall/shift"
)

// api routes /api/...: each handler checks its own method so that every
// wrong request gets a JSON answer.
func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(strings.TrimPrefix(r.URL.Path, "/api/"), "/"), "/")
	switch {
	case len(parts) == 1 && parts[0] == "meta":
		s.meta(w, r)
	case len(parts) == 1 && parts[0] == "model":
		s.model(w, r)
	case len(parts) == 2 && parts[0] == "i18n":
		s.messages(w, r, parts[1])
	case len(parts) == 1 && parts[0] == "debrief":
		if allow(w, r, http.MethodPost) {
			s.debriefHandler(w, r)
		}
	case parts[0] == "gamedays":
		s.gamedays(w, r, parts)
	case len(parts) == 1 && parts[0] == "trace":
		s.trace(w, r)
	case len(parts) == 1 && parts[0] == "sessions":
		if allow(w, r, http.MethodPost) {
			s.create(w, r)
		}
	case len(parts) == 2 && parts[0] == "sessions":
		s.sessionRoot(w, r, parts[1])
	case len(parts) == 3 && parts[0] == "sessions" && parts[2] == "decide":
		if allow(w, r, http.MethodPost) {
			s.decide(w, r, parts[1])
		}
	case len(parts) == 3 && parts[0] == "sessions" && parts[2] == "step":
		if allow(w, r, http.MethodPost) {
			s.step(w, r, parts[1])
		}
	case len(parts) == 3 && parts[0] == "sessions" && parts[2] == "takeover":
		if allow(w, r, http.MethodPost) {
			s.takeover(w, r, parts[1])
		}
	default:
		writeJSON(w, http.StatusNotFound, errorBody{fmt.Sprintf("%s: no such endpoint (the API has meta, model, i18n/LANG, trace, debrief, gamedays, sessions and sessions/ID with /decide, /step, /takeover)", clip(r.URL.Path, 60))})
	}
}

// readJSON decodes a request body of at most maxBody bytes into v, refusing
// unknown fields and trailing data.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d KB", maxBody>>10)}
		}
		return badRequest("reading the request body: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return badRequest("the request body is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("malformed JSON: %s", jsonMessage(err))
	}
	if dec.More() {
		return badRequest("malformed JSON: more than one value in the body: send one JSON object")
	}
	return nil
}

// jsonMessage rewords the decoder's errors for a person.
func jsonMessage(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("%v (at byte %d)", syn, syn.Offset)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Sprintf("field %q takes %s, not a JSON %s", typ.Field, typeName(typ.Type.Kind()), typ.Value)
		}
		return fmt.Sprintf("expected a JSON object, not a %s", typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the body ends in the middle of a value"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func typeName(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Uint32:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	}
	return "another kind of value"
}

// meta describes what the page draws: controls, metrics, outcome figures,
// scenarios, policies, languages and limits.
func (s *Server) meta(w http.ResponseWriter, r *http.Request) {
	if !allow(w, r, http.MethodGet) {
		return
	}
	type control struct {
		Name    string  `json:"name"`
		Kind    string  `json:"kind"`
		Min     float64 `json:"min"`
		Max     float64 `json:"max"`
		Default float64 `json:"default"`
		Unit    string  `json:"unit"`
		Doc     string  `json:"doc"`
	}
	type metric struct {
		Name     string `json:"name"`
		Unit     string `json:"unit"`
		Decimals int    `json:"decimals"`
		Kind     string `json:"kind"`
		Control  bool   `json:"control,omitempty"`
	}
	type scenario struct {
		ID       string      `json:"id"`
		Title    engine.Text `json:"title"`
		Briefing engine.Text `json:"briefing"`
	}
	kinds := map[engine.ControlKind]string{engine.KindInt: "int", engine.KindBool: "bool", engine.KindFloat: "float", engine.KindAction: "action"}
	mkinds := map[engine.MetricKind]string{engine.Number: "number", engine.Integer: "int", engine.Boolean: "bool"}
	var out struct {
		Controls  []control       `json:"controls"`
		Metrics   []metric        `json:"metrics"`
		Outcomes  []metric        `json:"outcomes"`
		Constants []metric        `json:"constants"`
		Scenarios []scenario      `json:"scenarios"`
		Policies  []string        `json:"policies"`
		Autopilot bool            `json:"autopilot"`
		Languages []i18n.Language `json:"languages"`
		Lang      string          `json:"lang"` // the browser's best match
		Limits    map[string]int  `json:"limits"`
	}
	for _, c := range engine.ControlSpecs() {
		out.Controls = append(out.Controls, control{c.Name, kinds[c.Kind], c.Min, c.Max, c.Default, c.Unit, c.Doc})
	}
	for _, m := range engine.MetricSpecs() {
		out.Metrics = append(out.Metrics, metric{m.Name, m.Unit, m.Decimals, mkinds[m.Kind], m.Control})
	}
	for _, o := range engine.OutcomeSpecs() {
		out.Outcomes = append(out.Outcomes, metric{Name: o.Name, Unit: o.Unit, Decimals: o.Decimals, Kind: "number"})
	}
	for _, c := range engine.ConstantSpecs() {
		out.Constants = append(out.Constants, metric{Name: c.Name, Unit: c.Unit, Kind: "number"})
	}
	for _, id := range s.order {
		sc := s.scenarios[id]
		out.Scenarios = append(out.Scenarios, scenario{id, sc.Title(), sc.Briefing()})
	}
	out.Policies = s.policyNames()
	out.Autopilot = s.opts.Compile != nil
	out.Languages = i18n.Languages()
	out.Lang = i18n.Match(r.Header.Get("Accept-Language"))
	out.Limits = map[string]int{"max_step": maxStep, "max_body": maxBody, "max_decisions": maxDecisions}
	writeJSON(w, http.StatusOK, out)
}

// messages serves one language's catalogue.
func (s *Server) messages(w http.ResponseWriter, r *http.Request, lang string) {
	if !allow(w, r, http.MethodGet) {
		return
	}
	if _, ok := i18n.Lookup(lang); !ok || lang != strings.ToLower(lang) {
		hint := ""
		if n := i18n.Nearest(lang); n != "" {
			hint = "; did you mean " + n + "?"
		}
		writeJSON(w, http.StatusNotFound, errorBody{fmt.Sprintf("unknown language %q%s (the console speaks %s)", clip(lang, 20), hint, strings.Join(i18n.Codes(), ", "))})
		return
	}
	b := i18n.Payload(lang)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// createRequest starts a shift, or rebuilds one to the minute it reached.
type createRequest struct {
	Scenario  string      `json:"scenario"`
	Seed      json.Number `json:"seed"`
	Noise     *bool       `json:"noise"`
	Minute    int         `json:"minute"`
	Decisions []Decision  `json:"decisions"`
	Autopilot *Autopilot  `json:"autopilot"`
}

// parseSeed reads the seed of a request, which names it "seed".
func parseSeed(text string) (uint32, error) {
	seed, err := shift.ParseSeed(text)
	switch {
	case errors.Is(err, shift.ErrNoSeed):
		return 0, badRequest("%v", err)
	case err != nil:
		return 0, badRequest("seed = %s: %v", clip(text, 30), err)
	}
	return seed, nil
}

// shiftState is a shift as the page draws it.
type shiftState struct {
	ID        string             `json:"id"`
	Scenario  string             `json:"scenario"`
	Seed      uint32             `json:"seed"`
	Noise     bool               `json:"noise"`
	Start     string             `json:"start"`
	Duration  int                `json:"duration"`
	Minute    int                `json:"minute"`
	Initial   map[string]float64 `json:"initial"`
	Autopilot *Autopilot         `json:"autopilot,omitempty"`
	Rows      []engine.Row       `json:"rows"`
	Done      bool               `json:"done"`
	Outcome   *engine.Outcome    `json:"outcome,omitempty"`
}

// readShift decodes a shift as the page sends it (scenario, seed, noise,
// autopilot, decisions), for the handlers that start or replay one.
func readShift(w http.ResponseWriter, r *http.Request) (createRequest, Shift, error) {
	var req createRequest
	if err := readJSON(w, r, &req); err != nil {
		return req, Shift{}, err
	}
	seed, err := parseSeed(req.Seed.String())
	if err != nil {
		return req, Shift{}, err
	}
	return req, Shift{Scenario: req.Scenario, Seed: seed, Noise: req.Noise == nil || *req.Noise, Autopilot: req.Autopilot, Decisions: req.Decisions}, nil
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	req, sh, err := readShift(w, r)
	if err != nil {
		fail(w, err)
		return
	}
	sim, sc, pl, err := s.build(sh, req.Minute)
	if err != nil {
		fail(w, err)
		return
	}
	sess := &session{id: newSessionID(), shift: sh, sc: sc, sim: sim, pilot: pl}
	st := sess.state() // before the session is shared: no other request can step it yet
	if err := s.add(sess); err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, st)
}

// state is the whole shift so far. The caller holds the session's lock or
// owns the session alone.
func (sess *session) state() shiftState {
	setup := sess.sim.Setup()
	init := map[string]float64{}
	for _, c := range engine.ControlSpecs() {
		if c.Kind != engine.KindAction {
			init[c.Name] = setup.Controls.Get(c.Control)
		}
	}
	st := shiftState{
		ID: sess.id, Scenario: sess.shift.Scenario, Seed: sess.shift.Seed, Noise: sess.shift.Noise,
		Start: engine.ClockString(setup.Start), Duration: setup.Minutes, Minute: sess.sim.Minute(),
		Initial: init, Autopilot: sess.shift.Autopilot, Rows: sess.sim.Rows(), Done: sess.sim.Done(),
	}
	if st.Rows == nil {
		st.Rows = []engine.Row{}
	}
	if st.Done {
		o := sess.sim.Outcome()
		st.Outcome = &o
	}
	return st
}

// sessionRoot reads (GET) or ends (DELETE) a session.
func (s *Server) sessionRoot(w http.ResponseWriter, r *http.Request, id string) {
	if !allow(w, r, http.MethodGet, http.MethodDelete) {
		return
	}
	if r.Method == http.MethodDelete {
		if !s.drop(id) {
			writeJSON(w, http.StatusNotFound, errorBody{"session " + clip(id, 40) + " is gone already"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ended": true})
		return
	}
	sess := s.lockSession(w, id)
	if sess == nil {
		return
	}
	st := sess.state()
	sess.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

type decideRequest struct {
	Control string `json:"control"`
	Value   Value  `json:"value"`
}

// decide queues a decision for the start of the next minute and answers
// the minute it takes effect, which the page records with it.
func (s *Server) decide(w http.ResponseWriter, r *http.Request, id string) {
	var req decideRequest
	if err := readJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	if req.Control == "" {
		fail(w, badRequest("control is missing: give one of %s", strings.Join(engine.ControlNames(), ", ")))
		return
	}
	sess := s.lockSession(w, id)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	d := Decision{Minute: sess.sim.Minute(), Control: req.Control, Value: req.Value}
	a, err := d.action("player")
	if err != nil {
		fail(w, err)
		return
	}
	if err := shift.Decide(sess.sim, a); err != nil {
		fail(w, decisionError(err))
		return
	}
	d.Value = Value(a.Value)
	sess.shift.Decisions = append(sess.shift.Decisions, d)
	writeJSON(w, http.StatusOK, d)
}

type stepRequest struct {
	Minutes int `json:"minutes"`
}

type stepAnswer struct {
	Minute  int             `json:"minute"`
	Rows    []engine.Row    `json:"rows"`
	Done    bool            `json:"done"`
	Outcome *engine.Outcome `json:"outcome,omitempty"`
}

// step advances the shift by 1 to maxStep minutes and answers the new rows.
func (s *Server) step(w http.ResponseWriter, r *http.Request, id string) {
	var req stepRequest
	if err := readJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	if req.Minutes < 1 || req.Minutes > maxStep {
		fail(w, badRequest("minutes = %d is out of range: a step advances 1 to %d minutes", req.Minutes, maxStep))
		return
	}
	sess := s.lockSession(w, id)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	sim := sess.sim
	if sim.Done() {
		if sim.Err() != nil {
			fail(w, runError(sess.shift, sim.Err()))
			return
		}
		fail(w, &httpError{http.StatusConflict, "the shift is over: start a new one"})
		return
	}
	from := sim.Minute()
	if err := sim.Run(req.Minutes); err != nil {
		fail(w, runError(sess.shift, err))
		return
	}
	ans := stepAnswer{Minute: sim.Minute(), Rows: sim.Rows()[from:], Done: sim.Done()}
	if ans.Done {
		o := sim.Outcome()
		ans.Outcome = &o
	}
	writeStep(w, ans)
}

// writeStep writes a step's answer by hand: it is the request a playing
// page sends every tick, and json.Marshal would parse again every row that
// Row.MarshalJSON has just written.
func writeStep(w http.ResponseWriter, ans stepAnswer) {
	buf := make([]byte, 0, 1600*len(ans.Rows)+64)
	buf = append(buf, `{"minute":`...)
	buf = strconv.AppendInt(buf, int64(ans.Minute), 10)
	buf = append(buf, `,"rows":[`...)
	for i, r := range ans.Rows {
		b, err := r.MarshalJSON()
		if err != nil {
			fail(w, &httpError{http.StatusInternalServerError, "writing a row: " + err.Error()})
			return
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b...)
	}
	buf = append(buf, `],"done":`...)
	buf = strconv.AppendBool(buf, ans.Done)
	if ans.Outcome != nil {
		o, err := json.Marshal(ans.Outcome)
		if err != nil {
			fail(w, &httpError{http.StatusInternalServerError, "writing the outcome: " + err.Error()})
			return
		}
		buf = append(buf, `,"outcome":`...)
		buf = append(buf, o...)
	}
	buf = append(buf, '}')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(buf)
}

// trace replays a shift from the query and answers its trace as CSV or
// JSON, for the page's download links; it needs no session, so a download
// works after a restart as well.
func (s *Server) trace(w http.ResponseWriter, r *http.Request) {
	if !allow(w, r, http.MethodGet) {
		return
	}
	q := r.URL.Query()
	for k := range q {
		switch k {
		case "scenario", "seed", "noise", "minute", "d", "format", "policy", "source", "until":
		default:
			fail(w, badRequest("unknown parameter %q: the trace takes scenario, seed, noise, minute, d, format, policy or source, until", clip(k, 30)))
			return
		}
	}
	seed, err := parseSeed(q.Get("seed"))
	if err != nil {
		fail(w, err)
		return
	}
	ds, err := ParseDecisions(q.Get("d"))
	if err != nil {
		fail(w, badRequest("d: %v", err))
		return
	}
	sh := Shift{Scenario: q.Get("scenario"), Seed: seed, Noise: q.Get("noise") != "false", Decisions: ds}
	if name, src := q.Get("policy"), q.Get("source"); name != "" || src != "" {
		until := -1
		if u := q.Get("until"); u != "" {
			if until, err = strconv.Atoi(u); err != nil {
				fail(w, badRequest("until = %q: it takes a minute, or -1 while the autopilot is on", clip(u, 20)))
				return
			}
		}
		sh.Autopilot = &Autopilot{Policy: name, Source: src, Until: until}
	}
	end, err := s.duration(sh)
	if err != nil {
		fail(w, err)
		return
	}
	minute := end
	if m := q.Get("minute"); m != "" {
		if minute, err = strconv.Atoi(m); err != nil {
			fail(w, badRequest("minute = %q: it takes a whole number from 0 to %d", clip(m, 20), end))
			return
		}
	}
	format := q.Get("format")
	if format != "csv" && format != "json" {
		fail(w, badRequest("format = %q: it takes csv or json", clip(format, 20)))
		return
	}
	sim, _, _, err := s.build(sh, minute)
	if err != nil {
		fail(w, err)
		return
	}
	var buf bytes.Buffer
	if format == "csv" {
		err = engine.WriteCSV(&buf, sim.Rows())
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		err = engine.WriteJSON(&buf, sim.Trace())
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	if err != nil {
		fail(w, &httpError{http.StatusInternalServerError, "writing the trace: " + err.Error()})
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="oncall-%s-%d.%s"`, safeName(sh.Scenario), seed, format))
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

// safeName keeps the letters, digits and dashes of a name for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, s)
}

// takeover ends the autopilot: the policy decides nothing after the minutes
// played so far, and the player's controls take over.
func (s *Server) takeover(w http.ResponseWriter, r *http.Request, id string) {
	var req struct{}
	if err := readJSON(w, r, &req); err != nil {
		fail(w, err)
		return
	}
	sess := s.lockSession(w, id)
	if sess == nil {
		return
	}
	defer sess.mu.Unlock()
	if sess.pilot == nil {
		fail(w, &httpError{http.StatusConflict, "this shift has no autopilot: you are playing it already"})
		return
	}
	if sess.pilot.until >= 0 {
		fail(w, &httpError{http.StatusConflict, fmt.Sprintf("you took over already, at minute %d", sess.pilot.until)})
		return
	}
	if sess.sim.Done() {
		fail(w, &httpError{http.StatusConflict, "the shift is over: there is nothing to take over"})
		return
	}
	m := sess.sim.Minute()
	sess.pilot.until = m
	a := *sess.shift.Autopilot
	a.Until = m
	sess.shift.Autopilot = &a
	writeJSON(w, http.StatusOK, map[string]int{"until": m})
}

// lockSession finds the session of a request and locks it for the request,
// since each session's engine serves one request at a time. It returns nil
// when there is none, having answered the request.
func (s *Server) lockSession(w http.ResponseWriter, id string) *session {
	sess, err := s.get(id)
	if err != nil {
		fail(w, err)
		return nil
	}
	sess.mu.Lock()
	return sess
}
