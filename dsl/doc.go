// Package dsl holds what the two user languages share: the shape of a
// diagnostic (file:line:col, a message, the offending line with a caret) and
// the list that collects every problem of a file before it is reported.
//
// The languages themselves live below: dsl/scenario loads Lua scenarios
// (gopher-lua), dsl/policy loads expr rules.
package dsl
