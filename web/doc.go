// Package web is the web console that `oncall play` serves: one page, from
// files embedded in the binary (static/: HTML, CSS, our own small script and
// SVG charts, no third-party code, nothing loaded from elsewhere), and a
// small JSON API that plays shifts of the engine.
//
// The server holds nothing the browser cannot rebuild: the engine is
// deterministic, so a shift is its scenario, seed, autopilot (a policy's
// name or pasted text, and the minute the player took over) and list of
// decisions (minute, control, value). The page keeps that list in the share
// link and in local storage; when its session is gone — the server
// restarted, the session expired — it asks for a new one with the same list
// and the server replays it to the same minute, row for row. Downloads,
// debriefs and game-day results are replayed the same way, so none of them
// needs a session, and a game day's figures are the server's, not the
// client's. Game days themselves are kept in a gameday.Store (SQLite, or
// PostgreSQL shared by several consoles), so any console behind a load
// balancer can answer any request. A result keeps its shift's replay (the
// decisions in the share link's form, the autopilot), and the results page
// links each result to it: a share link of the game day's scenario and
// seed at the shift's end, naming no game day, so that it opens the
// console on that shift and sends nothing.
//
// Team game days are the exception to a server that holds nothing: a
// team's shift is live on the server, shared by its members, its log kept
// in the game-day store (package team; team.go says how the console serves
// it, its streams and pages).
//
// The endpoints are a table of ServeMux patterns (routes.go), one file for
// each concern: sessions, game days, metadata and the catalogue, the model,
// traces (CSV, JSON, or OpenMetrics, the bytes `oncall run -f openmetrics
// --start` writes of the same shift), the debrief and its "what if"
// (whatif.go: the finished shift branched at some minutes with other
// decisions, and then nobody, the decisions taken or the reference policy
// deciding, by package whatif, as oncall run --replay branches a trace),
// and a team's own alerting rules over the finished shift (alertrules.go:
// a Prometheus rule file of at most MaxRuleFile, read and evaluated by
// package alerts as `oncall alerts test` reads and evaluates a run, within
// its bounds, one file at a time; the page marks on the charts the minutes
// each alert fired beside those of the built-in page). Before its handler every request passes the checks
// of harden.go, as the Go security guides describe them for a server that
// browsers reach: a body above 256 KB is a 413, sent at once (the rest
// of the body is then read for 2 s at most, so that a client that sends it
// whole sees the answer rather than a reset connection); a Host
// the console does not serve (a DNS rebinding) is a 421; a state-changing
// request from another site (Sec-Fetch-Site, or Origin against Host) is a
// 403; and a JSON endpoint refuses any body but application/json with a
// 415.
//
// Sessions are bounded in number and expire when idle; each is used by one
// request at a time (a mutex per session); the minutes a step may advance
// are bounded. What a session holds and answers is weighed, the firings of
// its rules and their lines in every language byte for byte, and bounded
// (Options.SessionMemory, a 422 naming it); the runs of all sessions are
// held within Options.MaxMemory, the least recently used let go past it
// and replayed when next asked for, the live streams and the replicas of
// team shifts counted in the same total (a replica lets go of its run once
// its shift ended, and of its team once its game day is deleted); a
// shift's state is written a row at a time rather than built whole
// (weight.go). The whole console's memory,
// Options.Memory, is bounded where it is spent (memory.go): the runs being
// stepped or built take slots of a session's budget, request bodies and
// headers are counted before and as they are read, and connections are
// counted (Listener), each past its share a 503 with Retry-After. Every bad request gets a 4xx answer whose body is
// {"error": "..."}, a sentence the page shows as it is, written in the
// language the request's Accept-Language asks for (the page names its own;
// a client that names none reads English), with the catalogue's key and
// its values beside it for the errors of the console's own (apierror.go,
// keys ui.api.*); a panic in a
// handler is caught and turned into a 500 so that the server keeps serving,
// and the tests (and FuzzAPI) show that no bad request reaches it.
//
// A link opens its shift by itself only when it plays no pasted policy and
// sends nothing to a game day, or when it is the page's own shift (the one
// it keeps in local storage: a reload). Any other link, which another site
// may have written, only fills the start form (a pasted policy the
// editor): the player starts the shift with a click, and a game-day result
// is sent only for a shift the player started from the game day's form. A
// pasted policy's link started as it filled the form opens where the link
// did, with its decisions and its takeover.
//
// The page's words come from the i18n catalogue (the "ui.*" keys of
// i18n/catalog/ui.<lang>.json and the model's own keys), its numbers from
// i18n's format.js, served as /static/format.js. In Urdu the page is right
// to left and each value inside a sentence is isolated by its first strong
// letter, so that "4.00 $/h" keeps its order and "10 منٹ" reads number
// first, as Urdu writes it; names are isolated too. The page ships its own
// Urdu font (static/fonts: Noto Naskh Arabic under the OFL, cut by
// fontsubset.sh to the letters of the catalogue and the scenarios, about
// 10 KB, bold drawn from it), which the browser fetches only for a page with Arabic
// letters, so that a system with no Urdu font shows no boxes. The runs are found
// in the text before it is escaped, so that none cuts an entity.
//
// A shift opens on its minute 0, computed, so that the tiles and charts
// start from a real minute. A step may ask to pause at the page
// (?pause=page): the server then stops after the minute the page fires,
// which is how "Pause when paged" stops on that very minute at an hour a
// second. Each view (start, shift, debrief, model, game-day results) is an
// entry of the browser's history; Back to the shift finds it as it was,
// its session still open.
//
// A scenario's own words come with its shift: its switches (switch{}),
// which the page draws among the controls with their labels and help, a
// decision of each the control "switch.<id>", and the labels it gives the
// model's controls, which the page says wherever it names one, and the
// server writes into the timeline's lines (switches.go).
//
// The page computes no figure of the model: it draws what the server
// sends. The capacity is a metric of the row; the tiles' levels and the
// bounds across the charts (the page rule in force, the slow p99) come
// with each shift, from the engine and the scenario; the lines of the
// timeline and the values of decisions come written by i18n (EventText,
// ControlValue) in every language, so that a change of language needs no
// request. The clock at every minute comes with the shift too ("times"),
// and the share link's decisions ("d": 12:rollback,30:shed=0.5) are
// written and read by the server alone (FormatDecisions, ParseDecisions):
// a new shift takes them as d, and each decision's answer carries the new d.
//
// The debrief scores a shift as oncall grade scores its seed (score.Seed)
// and accounts for every point (debrief.go, static/account.js): each
// criterion's row shows its part as counted, guards applied, rounded to
// tenths so that the rows add up to the score as shown; a row a missed
// guard cancelled or cut names that guard; the first line under the score
// says which guards missed, in the shift's figures against their bounds,
// and how many of the points the other criteria earned they took; a shift
// worse than doing nothing is told so with its figures. The server sends
// figures, never sentences, and the page writes them in its language.
//
// The Logs panel (static/logs.js) lists the log lines of the last ten
// minutes as the rows bring them, newest minute first, the most severe
// and then the largest count first inside a minute, filtered by level. An
// engine's line is written in the page's language from its cause, as
// i18n.LogText writes it; a scenario's line, a source and a build's
// message are its text as written, isolated (dir=auto). The panel sits
// under the tiles, in the first screen at 1366×768 while paged; on a phone
// under the controls, wrapping its lines. The dependency's tiles and
// charts (its wait, its errors, the clients' retries, the work for
// clients that gave up) show from the first minute a request calls it
// (dep_ms_seen or dep_errors above 0), a client retries or the fleet works
// for a client that left, and not at all in a shift that has none. The rollout's
// buttons work while a rollout serves part of the traffic (new_build
// between 0 and 1), under way or held; B, P and U press the breaker,
// Pause and Resume from the keyboard, none asking first since each is
// undone by another press.
//
// The page is laid out so that a shift is read and steered at a glance: at
// 1366×768 and on a 390×844 phone the clock, the page banner, the six key
// tiles and every control are in view without scrolling, Roll back first
// while the page holds. Its charts follow the clock (two hours by default,
// the whole shift one click away) and show a minute's values on hover and
// by keyboard; Space, →, R (after asking), B, P, U and ? run the shift from the
// keyboard, each announced to a screen reader (glance_test.go shows it in
// Chromium). Roll back asks first, from its button as from R. A tile's
// value and its second line are fitted to the tile as laid out, in any
// language (static/fit.js): shorter words first, then a smaller size.
//
// The model page of a shift being played asks for its scenario with the
// seed's draws hidden (draws=hidden, modelpage.BuildHidden) until the
// shift ends: the ranges the scenario draws from, not what the seed drew.
package web
