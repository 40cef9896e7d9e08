// Package web is the web console: an HTTP handler that serves one page, from
// files embedded in the binary, and a small JSON API that plays shifts of
// the engine.
//
// The server keeps a bounded number of sessions, each one Sim used by one
// request at a time. It holds nothing the browser cannot rebuild: the engine
// is deterministic, so a shift is its scenario, seed and list of decisions
// (minute, control, value), and the page keeps that list (in the share link
// and in local storage). When a session is gone — the server restarted, the
// session expired — the page asks for a new one with the same list and the
// server replays it to the same minute, row for row.
//
// Every bad request gets a 4xx answer whose body is {"error": "..."}, a
// sentence the page shows as it is; a panic in a handler is caught and turned
// into a 500 so that the server keeps serving, and the tests show that no
// bad request reaches it.
package web
