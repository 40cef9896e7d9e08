--- TestGetScaleAndRamp
scenario { id = "t", title = "T", briefing = "B", start = "10:00", duration = "1h",
  constants = { db_capacity = 1200 }, controls = { ttl_s = 90 } }
local declared = get("db_capacity")
local seen = {}
at("10:05", function() scale { db_capacity = 0.5 } end)
at("10:06", function() seen[#seen + 1] = get("db_capacity") .. "/" .. tostring(get("feature")) .. "/" .. get("ttl_s") end)
at("10:10", function() ramp { app_ms = 80, over = "3m" } end)
at("10:12", function() seen[#seen + 1] = get("app_ms") end)
at("10:20", function() scale { db_capacity = 1 } end)
at("10:21", function() say(declared .. " " .. table.concat(seen, " ") .. " " .. get("db_capacity") .. " " .. get("app_ms")) end)
--- TestDeployABuild
scenario { id = "t", title = "T", briefing = "B", start = "10:00", duration = "30m",
  constants = { bad_error_rate = 0.2 }, controls = { autoscaling = false } }
at("10:02", function() deploy { build = "4.2.1", error_rate = 0.1, cpu = 1.5, leak = { app_ms_per_min = 2 }, rollout = 2 } end)
at("10:10", function() deploy { build = "bad" } end)
at("10:15", function() deploy { build = "4.2.2" } end)
--- TestOnDecision
scenario { id = "t", title = "T", briefing = "B", start = "10:00", duration = "30m" }
function on_decision(action, row)
  say(action.name .. "=" .. tostring(action.value) .. " by " .. action.by .. " after " .. row.time)
  if action.name == "feature" and action.value == false then
    at(now() + 5, function() set { feature = true } end)
  end
end
--- TestOutcome
scenario { id = "t", title = "T", briefing = "B", start = "10:00", duration = "30m" }
grade { { metric = "slow_rows", at_most = "reference + 1" } }
outcome { name = "slow_rows", unit = "min", value = function(rows)
  local n = 0
  for _, r in ipairs(rows) do if r.p99_ms > 341 then n = n + 1 end end
  return n
end }
outcome { name = "rows", value = function(rows) return #rows end }
