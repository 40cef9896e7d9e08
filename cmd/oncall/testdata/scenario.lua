--- drill
scenario {
  id = "db-shrink",
  title = { en = "The database shrinks", fr = "La base rétrécit" },
  briefing = "At 08:20 the database loses a replica.",
  start = "08:00",
  duration = "45m",
}

at("08:20", function()
  set { db_capacity = 1500 }
  say { en = "A database replica is gone." }
end)

grade { { metric = "error_requests", at_most = "reference * 1.1 + 100" } }
--- TestCheckPrintsEveryProblemOfEveryFile
scenario {
  id = "x",
  title = "X",
  briefing = "B",
  budget_left = -1,
  controls = { autoscale = false },
}
--- TestRunStopsOnAScenarioErrorWithItsLine: a template of the draw that seed 0 makes (%.17g)
scenario { id = "sensor", title = "S", briefing = "B", duration = 30 }
local x = rng.uniform(0, 1)
at(12, function()
  if x > %.17g then error("sensor offline") end
end)
--- TestCheckFindsAnErrorOfSomeSeeds
scenario { id = "fragile", title = "F", briefing = "B", duration = 30 }
local r = rng.uniform(0, 1)
at(12, function()
  if r > 0.9 then error("sensor offline") end
end)
--- TestRunOfACallbackThatAlwaysFails
scenario { id = "pager", title = "P", briefing = "B", start = "11:00", duration = "1h" }
at("11:20", function() error("the pager is on fire") end)
--- TestCheckReportsEveryProblem
scenario { id = "drill", title = "D", briefing = "B", start = "09:00", duration = "1h" }
deploy { build = "4.2.1" }
local cap = get("db_capacity")
at("09:10", function() scale { db_capacty = 0.5 } end)
at("09:20", function() say { en = "half", fr = 2 } end)
function on_minute(row)
  if row.p99ms then end
end
