package scenario

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/dsl"
)

// hostileOptions are small budgets, so that the table runs fast. Where the
// memory budget is what should stop a case, time is plenty, so that a slow
// machine (or the race detector) meets the same limit.
func hostileOptions(want string) Options {
	if strings.Contains(want, "memory budget") {
		return Options{TimeBudget: time.Minute, MemoryBudget: 8 << 20}
	}
	return Options{TimeBudget: time.Second, MemoryBudget: 8 << 20}
}

// TestHostileAndBroken pins the full text of what a user sees for scenarios
// that try to escape, exhaust or break the sandbox, and for plain mistakes:
// every one ends in a diagnostic naming the file and line, none in a hang
// or a crash.
func TestHostileAndBroken(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "endless loop",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
while true do end
`,
			want: `hostile.lua:2: the scenario ran over its time budget of 1s: is there an endless loop?
 2 | while true do end`,
		},
		{
			name: "endless loop in at()",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  while true do end
end)
`,
			want: `hostile.lua:3: at(): the scenario ran over its time budget of 1s: is there an endless loop?
 3 |   while true do end`,
		},
		{
			name: "endless loop in surge",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function surge(t)
  repeat until false
end
`,
			want: `hostile.lua:3: surge(): the scenario ran over its time budget of 1s: is there an endless loop?
 3 |   repeat until false`,
		},
		{
			name: "deep recursion",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local function f(n) return 1 + f(n + 1) end
f(1)
`,
			want: `hostile.lua:2: stack overflow: too many nested calls or values at once (a function that calls itself without end?)
 2 | local function f(n) return 1 + f(n + 1) end`,
		},
		{
			name: "string doubling",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = "x"
while true do s = s .. s end
`,
			want: `hostile.lua:3: the strings of this function reach 192.0 KiB, over the limit of 128.0 KiB for one string (1/64 of the memory budget): is a string growing in a loop?
 3 | while true do s = s .. s end`,
		},
		{
			name: "string.rep of a gigabyte",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("x"):rep(1e9)
`,
			want: `hostile.lua:2: string.rep: the result would be 953.7 MiB, over the limit of 128.0 KiB for one string (1/64 of the memory budget)
 2 | local s = ("x"):rep(1e9)`,
		},
		{
			name: "table growing without end",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = {}
for i = 1, 1e9 do t[i] = { i } end
`,
			want: `hostile.lua:3: the scenario holds more than its memory budget of 8.0 MiB: is a table or string growing without end?
 3 | for i = 1, 1e9 do t[i] = { i } end`,
		},
		{
			name: "strings kept in a table",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t, s = {}, ("y"):rep(100000)
for i = 1, 1e6 do t[i] = s .. i end
`,
			want: `hostile.lua:3: the strings of this function reach 195.3 KiB, over the limit of 128.0 KiB for one string (1/64 of the memory budget): is a string growing in a loop?
 3 | for i = 1, 1e6 do t[i] = s .. i end`,
		},
		{
			name: "tables with far indexes",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
A, B, C = {}, {}, {}
A[262143] = 1
B[262143] = 1
C[262143] = 1
`,
			want: `hostile.lua: once loaded, the scenario holds more than its memory budget of 8.0 MiB: is a table or string growing without end?`,
		},
		{
			name: "gsub multiplying a string",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("ab"):rep(1000)
local r = s:gsub("a", ("z"):rep(100000))
`,
			want: `hostile.lua:3: string.gsub: the result would be 195.4 KiB, over the limit of 128.0 KiB for one string (1/64 of the memory budget)
 3 | local r = s:gsub("a", ("z"):rep(100000))`,
		},
		{
			name: "format width",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = string.format("%099999d", 1)
`,
			want: `hostile.lua:2: string.format: invalid format "%099999d" (width or precision too long: at most 99)
 2 | local s = string.format("%099999d", 1)`,
		},
		{
			name: "pathological pattern",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("a"):rep(5000)
local i = s:find(".-.-.-.-b")
`,
			want: `hostile.lua:3: string.find: a pattern with 4 repetitions on a subject of 5000 characters could take too long (more than 1e+07 steps): shorten the subject or simplify the pattern
 3 | local i = s:find(".-.-.-.-b")`,
		},
		{
			name: "io",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local f = io.open("/etc/passwd")
`,
			want: `hostile.lua:2: io is not available in a scenario: scenarios have no file, process or network access
 2 | local f = io.open("/etc/passwd")`,
		},
		{
			name: "os",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
os.execute("rm -rf /")
`,
			want: `hostile.lua:2: os is not available in a scenario: scenarios have no file, process or network access; the time of day is clock("HH:MM") and now()
 2 | os.execute("rm -rf /")`,
		},
		{
			name: "require",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local socket = require("socket")
`,
			want: `hostile.lua:2: require is not available in a scenario: a scenario is one file and cannot load code
 2 | local socket = require("socket")`,
		},
		{
			name: "load",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local f = load("return 1")
`,
			want: `hostile.lua:2: load is not available in a scenario: a scenario is one file and cannot load code
 2 | local f = load("return 1")`,
		},
		{
			name: "loadstring",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
loadstring("return 1")()
`,
			want: `hostile.lua:2: loadstring is not available in a scenario: a scenario is one file and cannot load code
 2 | loadstring("return 1")()`,
		},
		{
			name: "dofile",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
dofile("/etc/passwd")
`,
			want: `hostile.lua:2: dofile is not available in a scenario: a scenario is one file and cannot load code
 2 | dofile("/etc/passwd")`,
		},
		{
			name: "loadfile",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
loadfile("/etc/passwd")
`,
			want: `hostile.lua:2: loadfile is not available in a scenario: a scenario is one file and cannot load code
 2 | loadfile("/etc/passwd")`,
		},
		{
			name: "collectgarbage",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
collectgarbage("count")
`,
			want: `hostile.lua:2: collectgarbage is not available in a scenario: memory is managed for you, within the run's memory budget
 2 | collectgarbage("count")`,
		},
		{
			name: "print",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
print("hello")
`,
			want: `hostile.lua:2: print is not available in a scenario: use say{en = "..."} to put a line on the player's timeline
 2 | print("hello")`,
		},
		{
			name: "debug",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
debug.sethook()
`,
			want: `hostile.lua:2: debug is not available in a scenario: scenarios cannot inspect the interpreter
 2 | debug.sethook()`,
		},
		{
			name: "coroutine",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
coroutine.wrap(function() end)()
`,
			want: `hostile.lua:2: coroutine is not available in a scenario: scenarios run their callbacks to the end, without coroutines
 2 | coroutine.wrap(function() end)()`,
		},
		{
			name: "math.randomseed",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
math.randomseed(42)
`,
			want: `hostile.lua:2: math.randomseed is not available: the scenario stream is seeded by the run's seed
 2 | math.randomseed(42)`,
		},
		{
			name: "syntax error",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deploy { build = "bad"
end)
`,
			want: `hostile.lua:4:3: syntax error near "end"
 4 | end)
   |   ^`,
		},
		{
			name: "missing end",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  flush_cache()
`,
			want: "hostile.lua:3: syntax error at the end of the file (a missing `end`, `)` or `}`?)\n 3 |   flush_cache()",
		},
		{
			name: "at given a string to run",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(910, "deploy")
`,
			want: `hostile.lua:2: at(910, ...) takes a function to run then, e.g. at("09:10", function() deploy{ build = "bad" } end), not "deploy"
 2 | at(910, "deploy")`,
		},
		{
			name: "scenario given a string",
			src: `scenario "my drill"
`,
			want: `hostile.lua:1: scenario takes a table: scenario{ id = "my-drill", title = { en = "My drill" }, ... }, not "my drill"
 1 | scenario "my drill"`,
		},
		{
			name: "wrong type of field",
			src: `scenario { id = "w", title = "W", briefing = "B", budget_left = "most", duration = 90.5 }
`,
			want: `hostile.lua:1:65: scenario{}: budget_left = "most": it takes a number
 1 | scenario { id = "w", title = "W", briefing = "B", budget_left = "most", duration = 90.5 }
   |                                                                 ^

hostile.lua:1:84: scenario{}: duration = 90.5 minutes is out of range: it takes 1 minute to 10080 (a week)
 1 | scenario { id = "w", title = "W", briefing = "B", budget_left = "most", duration = 90.5 }
   |                                                                                    ^`,
		},
		{
			name: "unknown event",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deplyo { build = "bad" }
end)
`,
			want: `hostile.lua:3: at(): unknown name deplyo; did you mean deploy?
 3 |   deplyo { build = "bad" }`,
		},
		{
			name: "unknown field and language",
			src: `scenario {
  id = "u",
  title = { en = "U", de = "V" },
  briefing = "B",
  duraton = "1h",
  controls = { min_instance = 3 },
}
`,
			want: `hostile.lua:3:11: scenario{}: title has an unknown language de (languages: en, bs, id, es, ur, fr)
 3 |   title = { en = "U", de = "V" },
   |           ^

hostile.lua:5:3: scenario{}: unknown field duraton; did you mean duration? (fields: id, title, briefing, start, duration, budget_left, warm, instances, constants, controls, page)
 5 |   duraton = "1h",
   |   ^

hostile.lua:6:16: scenario{}: unknown control "min_instance"; did you mean min_instances? (controls: min_instances, autoscaling, target_utilization, ttl_s, warmup, shed, feature, rollback)
 6 |   controls = { min_instance = 3 },
   |                ^`,
		},
		{
			name: "values out of range",
			src: `scenario {
  id = "r",
  title = "R",
  briefing = "B",
  budget_left = 2,
  constants = { boot_delay = 500 },
  controls = { shed = 1.5, feature = 1 },
}
`,
			want: `hostile.lua:5:17: scenario{}: budget_left = 2 is out of range: it takes 0 to 1
 5 |   budget_left = 2,
   |                 ^

hostile.lua:6:30: scenario{}: constant boot_delay = 500 is out of range: it takes 0 to 120 min
 6 |   constants = { boot_delay = 500 },
   |                              ^

hostile.lua:7:23: scenario{}: shed = 1.5 is out of range: it takes 0 to 1
 7 |   controls = { shed = 1.5, feature = 1 },
   |                       ^

hostile.lua:7:38: scenario{}: feature = 1: it takes true or false
 7 |   controls = { shed = 1.5, feature = 1 },
   |                                      ^`,
		},
		{
			name: "control out of range at run time",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  set { min_instances = 99 }
end)
`,
			want: `hostile.lua:3: at(): set{}: min_instances = 99 is out of range: it takes a whole number from 1 to 40
 3 |   set { min_instances = 99 }`,
		},
		{
			name: "rollout out of range",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deploy { build = "bad", rollout = 0 }
end)
`,
			want: `hostile.lua:3: at(): deploy{}: rollout = 0 is out of range: it takes the minutes the rollout lasts, 1 or more
 3 |   deploy { build = "bad", rollout = 0 }`,
		},
		{
			name: "unknown build",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deploy { build = "bda" }
end)
`,
			want: `hostile.lua:3: at(): deploy{}: build = "bda": it takes "bad" or "good"; did you mean bad?
 3 |   deploy { build = "bda" }`,
		},
		{
			name: "event outside the run",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
flush_cache()
`,
			want: `hostile.lua:2: flush_cache() happens during the run: call it inside at("HH:MM", function() ... end) or on_minute(row)
 2 | flush_cache()`,
		},
		{
			name: "at after the end",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("11:30", function() flush_cache() end)
`,
			want: `hostile.lua:2: at("11:30"): minute 150 is after the end of the run (60 minutes)
 2 | at("11:30", function() flush_cache() end)`,
		},
		{
			name: "error raised with a table",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
error({ code = 42 })
`,
			want: `hostile.lua:2: error() was given a table, not a message: pass a string, e.g. error("what went wrong")
 2 | error({ code = 42 })`,
		},
		{
			name: "error raised in a callback",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:20", function()
  error("the pager is on fire")
end)
`,
			want: `hostile.lua:3: at(): the pager is on fire
 3 |   error("the pager is on fire")`,
		},
		{
			name: "surge returning a string",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function surge(t)
  return "lots"
end
`,
			want: `hostile.lua:2: surge(0) returned "lots": it must return a number ≥ 0, the demand multiplier (1 for none)
 2 | function surge(t)`,
		},
		{
			name: "surge indexing a number",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function surge(t)
  return t.x
end
`,
			want: `hostile.lua:3: surge(): attempt to index a non-table object(number) with key 'x'
 3 |   return t.x`,
		},
		{
			name: "on_minute misspelt metric",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function on_minute(row)
  if row.burn1h > 1 then say("hot") end
end
`,
			want: `hostile.lua:3: on_minute(): row.burn1h: unknown metric; did you mean burn_1h? (metrics: the columns of a trace, e.g. burn_1h, error_rate, db_util)
 3 |   if row.burn1h > 1 then say("hot") end`,
		},
		{
			name: "page rule not a bool",
			src: `scenario { id = "p", title = "P", briefing = "B", duration = "1h", page = "burn_1h + 2" }
`,
			want: `hostile.lua:1:75: page rule: the page rule must be true or false, e.g. "burn_1h >= 14.4 && burn_5m >= 14.4" (expected bool, but got float64)
 1 | scenario { id = "p", title = "P", briefing = "B", duration = "1h", page = "burn_1h + 2" }
   |                                                                           ^`,
		},
		{
			name: "page rule unknown metric",
			src: `scenario { id = "p", title = "P", briefing = "B", duration = "1h",
  page = "burn1h >= 14.4 && burn_5m >= 14.4" }
`,
			want: `hostile.lua:2:11: page rule: unknown name burn1h; did you mean burn_1h?
 2 |   page = "burn1h >= 14.4 && burn_5m >= 14.4" }
   |           ^`,
		},
		{
			name: "grade criteria",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
grade {
  { metric = "budget_usd", at_most = "reference + 0.01" },
  { metric = "cost", at_most = "reference *", weight = -1 },
  { metric = "cost", at_least = 1, at_most = 2 },
}
`,
			want: `hostile.lua:3:14: grade{}: unknown outcome "budget_usd"; did you mean budget_used?
 3 |   { metric = "budget_usd", at_most = "reference + 0.01" },
   |              ^

hostile.lua:4:32: grade{}: at_most = "reference *": not a number nor an expression over reference (unexpected token EOF (1:11))
 4 |   { metric = "cost", at_most = "reference *", weight = -1 },
   |                                ^

hostile.lua:4:56: grade{}: weight = -1: it takes a number above 0
 4 |   { metric = "cost", at_most = "reference *", weight = -1 },
   |                                                        ^

hostile.lua:5:46: grade{}: a criterion takes one of at_most and at_least, not both
 5 |   { metric = "cost", at_least = 1, at_most = 2 },
   |                                              ^`,
		},
		{
			name: "no scenario declared",
			src: `local x = 1
`,
			want: `hostile.lua:1: the file never calls scenario{...}: every scenario declares at least its id, title and briefing, e.g. scenario{ id = "my-drill", title = "My drill", briefing = "What the player faces" }
 1 | local x = 1`,
		},
		{
			name: "binary file",
			src:  "\x7fELF\x02\x01\x01\x00\x00\x00scenario\n",
			want: `hostile.lua:1: the file holds a NUL byte, so it is not text: a scenario is a Lua source file`,
		},
		{
			name: "not UTF-8",
			src:  "scenario { id = \"h\", title = \"H\", briefing = \"B\" }\nsay \"caf\xe9\"\n",
			want: `hostile.lua:2: the file is not UTF-8 text: save it as UTF-8`,
		},
		{
			name: "byte order mark then an error",
			src:  "\uFEFFscenario { id = \"h\", title = \"H\", briefing = \"B\", start = \"09:00\", duration = \"1h\" }\nlocal n = clok(\"09:30\")\n",
			want: `hostile.lua:2: unknown name clok; did you mean clock?
 2 | local n = clok("09:30")`,
		},
		{
			name: "raw escape character in the source",
			src:  "scenario { id = \"h\", title = \"H\", briefing = \"B\" }\n-- \x1b[2J\n",
			want: `hostile.lua:2: the file holds the control character U+001B: remove it, or write it as an escape in a string ("\27")`,
		},
		{
			name: "escape sequence in a title",
			src:  "scenario { id = \"h\", title = \"Drill\\27[2J\", briefing = \"B\" }\n",
			want: `hostile.lua:1:30: scenario{}: title "Drill\x1b[2J": holds the control character U+001B: write plain text
 1 | scenario { id = "h", title = "Drill\27[2J", briefing = "B" }
   |                              ^`,
		},
		{
			name: "title on two lines",
			src:  "scenario { id = \"h\", title = { en = \"Two\\nlines\" }, briefing = \"Line one.\\nLine two.\" }\n",
			want: `hostile.lua:1:30: scenario{}: title en = "Two\nlines": a title is one line, without tabs
 1 | scenario { id = "h", title = { en = "Two\nlines" }, briefing = "Line one.\nLine two." }
   |                              ^`,
		},
		{
			name: "escape sequence said",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(3, function() say { en = "ok", fr = "\27]0;pwned\7" } end)
`,
			want: `hostile.lua:2: at(): say: the message fr = "\x1b]0;pwned\a": holds the control character U+001B: write plain text
 2 | at(3, function() say { en = "ok", fr = "\27]0;pwned\7" } end)`,
		},
		{
			name: "scenario twice",
			src: `scenario { id = "a", title = "A", briefing = "B" }
scenario { id = "b", title = "B", briefing = "B" }
`,
			want: `hostile.lua:2: scenario{...} is called twice (first at line 1): declare the scenario once
 2 | scenario { id = "b", title = "B", briefing = "B" }`,
		},
		{
			name: "unknown global",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local n = clok("09:30")
`,
			want: `hostile.lua:2: unknown name clok; did you mean clock?
 2 | local n = clok("09:30")`,
		},
		{
			name: "string.dump",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local code = string.dump(function() end)
`,
			want: `hostile.lua:2: string.dump is not available: a scenario cannot load code
 2 | local code = string.dump(function() end)`,
		},
		{
			name: "brackets nested too deep",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local x = {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}
`,
			want: `hostile.lua:2:111: brackets nest more than 100 deep here: split the expression
 2 | local x = {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}
   |                                                                                                               ^`,
		},
		{
			name: "unpack of a huge table",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = {}
for i = 1, 200000 do t[i] = i end
local n = select("#", unpack(t))
`,
			want: `hostile.lua:4: registry overflow: too many nested calls or values at once (a function that calls itself without end?)
 4 | local n = select("#", unpack(t))`,
		},
		{
			name: "sort comparator that never returns",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = { 3, 1, 2 }
table.sort(t, function(a, b) while true do end end)
`,
			want: `hostile.lua:3: the scenario ran over its time budget of 1s: is there an endless loop?
 3 | table.sort(t, function(a, b) while true do end end)`,
		},
		{
			name: "__index calling itself",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = setmetatable({}, { __index = function(t, k) return t[k] end })
local v = t.x
`,
			want: `hostile.lua:2: stack overflow: too many nested calls or values at once (a function that calls itself without end?)
 2 | local t = setmetatable({}, { __index = function(t, k) return t[k] end })`,
		},
		{
			name: "__tostring that never returns",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = tostring(setmetatable({}, { __tostring = function() while true do end end }))
`,
			want: `hostile.lua:2: the scenario ran over its time budget of 1s: is there an endless loop?
 2 | local s = tostring(setmetatable({}, { __tostring = function() while true do end end }))`,
		},
		{
			name: "pcall catching the budget",
			src: `scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
while true do
  pcall(function() while true do end end)
end
`,
			want: `hostile.lua:4: the scenario ran over its time budget of 1s: is there an endless loop?
 4 | end`,
		},
	}
	if len(cases) < 15 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile("hostile.lua", []byte(c.src), hostileOptions(c.want))
			var l dsl.List
			if !errors.As(err, &l) {
				t.Fatalf("Compile = %v, want a dsl.List", err)
			}
			if got := l.Render(); got != c.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, c.want)
			}
			for _, d := range l {
				if d.Pos.File != "hostile.lua" {
					t.Errorf("%q names no file", d.Error())
				}
			}
		})
	}
}
