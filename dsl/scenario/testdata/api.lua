--- TestPageRuleFromTheScenario
scenario { id = "p", title = "P", briefing = "B", duration = 30, page = "utilization > 0.1 && minute >= 20 && feature" }
--- TestClockCountsFromTheStart
scenario { id = "c", title = "C", briefing = "B", start = "23:00", duration = "3h" }
at(1, function() say(clock("23:30") .. " " .. clock("00:15") .. " " .. clock("23:00")) end)
--- TestDeclarationReadsEveryField
scenario {
  id = "d", title = { en = "D", fr = "Dé" }, briefing = "Brief",
  start = "10:30", duration = "1h30m", budget_left = 0.5, warm = 0.25, instances = 12,
  constants = { db_capacity = 3000, boot_delay = 5 },
  controls = { min_instances = 8, autoscaling = false, ttl_s = 120, shed = 0.2, feature = false, target_utilization = 0.5 },
}
grade { { metric = "cost", at_most = 100 }, { metric = "availability", at_least = "reference - 0.001", weight = 3 } }
--- TestEventsHappenAtTheirMinuteInOrder
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  set { boot_delay = 8, min_instances = 12, feature = false }
  say { en = "hello", fr = "bonjour" }
end)
at(5, function() flush_cache() end)
at("09:20", function()
  deploy { build = "bad", rollout = 4 }
  at(now() + 3, function() deploy { build = "good" } end)
end)
at("09:30", function() warmup() end)
--- TestOnMinuteReactsToTheLastMinute
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
local done = false
function on_minute(row)
  if not done and row.time == "09:10" and row.utilization < 1 and row.feature then
    done = true
    set { shed = 0.5 }
  end
end
--- TestRandomDrawsFollowTheScenarioStream
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
local a, b, c, d, e = rng.uniform(2, 3), rng.exponential(5), rng.normal(10, 2), rng.poisson(4), math.random()
at(1, function() say(string.format("%.17g %.17g %.17g %.17g %.17g %d", a, b, c, d, e, math.random(6))) end)
--- TestScenarioDrawsNeverShiftTheNoise: a template of the draws at load (%[1]d) and each minute (%[2]d)
scenario { id = "n", title = "N", briefing = "B", duration = 20 }
for i = 1, %[1]d do rng.normal(0, 1) end
function surge(t)
  for i = 1, %[2]d do rng.poisson(3); math.random() end
  return 1
end
function on_minute(row) rng.uniform(0, 1) end
--- TestBudgetsCountTheWholeRun: a template of a minute's work (%d)
scenario { id = "s", title = "S", briefing = "B", duration = 5 }
function on_minute(row)
  local x = 0
  for i = 1, %d do x = x + i end
end
--- TestVarargsKeepTheirArgTable
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
local function count(...) return arg.n end
local function first(...) local a = ... return a end
local extra = select("#", ...)
at("09:05", function() set { min_instances = count(1, 2, 3) + first(4) + extra } end)
--- TestLoadDirKeepsWhatLoadsAndReportsTheRest: a file of declarations (x.d.lua), which LoadDir leaves out
---@meta
function at(when, fn) end
