// Package sandbox is the Lua state an untrusted script runs in, metered:
// it knows nothing of what the script is for. Its user (dsl/scenario)
// opens a Library once a program with a Config, which words its messages
// (what the script is called, what the user's API offers in place of a
// library removed) and names the party its steps are charged to, adds its
// API to the library's globals and seals it; each run then takes a State on those globals, starts it
// with the run's budget.Meter and a Host (what the shared functions need
// of the run: math.random's draws, and the user's own API, which asserts
// the Host to its run), calls into Lua between Meter.Enter and
// Meter.Leave, and gives the state back with State.Reset when the run
// left it clean.
//
// The state opens only the base library (less load, dofile and their
// kin), table, string and math; math.random draws from the Host. The
// libraries are built once and shared read-only by every run of a
// program: assigning string.rep or math.floor is an error, a run's own
// globals are its own (library.go).
//
// The meter (meter.go) charges a step per instruction, and the work
// inside the library functions, which are written here where gopher-lua's
// could run long inside one call (patterns by internal/luapattern, which
// counts its steps; string.format, which reads Lua's options only;
// table.sort, a step a comparison; #, next and the table functions, for
// the slots they scan); the strings they build are bounded as they grow,
// and the memory the state can reach is measured against the memory
// budget when what the run itself made (its instructions, and the strings
// it built, as the meter counts them) grew enough to matter: never by what
// the rest of the process allocates, so that oncall check alone and a
// batch beside other runs stop a run at the same instruction. gopher-lua's
// MaxArrayIndex, a variable of the whole process, is lowered once by
// Open, not at init (library.go). Walk and RewriteLength rewrite a chunk's syntax tree before it
// compiles, so that # is a metered call.
package sandbox
