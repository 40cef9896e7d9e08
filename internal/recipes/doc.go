// Package recipes holds no code: its test keeps the recipes of
// CONTRIBUTING.md ("Add a metric", "Add a control", ...) true to the files
// and names they send a contributor to.
package recipes
