// Package spell suggests the name a user most likely meant when a name is
// unknown: "unknown control shedd; did you mean shed?". Every suggestion of
// oncall comes from here, so that a misspelling is judged the same way
// everywhere (a flag, a scenario field, a rule's metric, a language).
//
// It is a leaf: it imports only the standard library, so that the engine,
// which imports nothing else, may use it too.
package spell
