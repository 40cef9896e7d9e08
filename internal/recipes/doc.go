// Package recipes holds no code: its tests keep CONTRIBUTING.md true, the
// recipes ("Add a metric", "Add a control", ...) to the files and names
// they send a contributor to, and the graph of dependencies to go list.
package recipes
