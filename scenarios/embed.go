// Package scenarios holds the built-in scenarios as Lua files, embedded in
// the binary, and the annotation file that gives authors completion in an
// editor with the Lua language server.
package scenarios

import "embed"

// Files holds every built-in scenario (*.lua), the annotations included.
//
//go:embed *.lua
var Files embed.FS

// Names returns the built-in scenarios, in the order the product lists them.
func Names() []string {
	return []string{"free-play", "bad-deploy", "surge", "cache-flush",
		"db-degradation", "memory-leak", "thundering-herd", "config-push",
		"slow-dependency", "cert-expiry", "canary", "retry-storm", "waf-rules", "holiday-return"}
}

// Annotations is the name of the language server's annotation file, which
// is not a scenario; internal/luadecl writes it from the engine's tables.
//
//go:generate go run ../internal/luadecl -o oncall.d.lua
const Annotations = "oncall.d.lua"
