--- TestRunStoppedJSON
scenario { id = "breaks", title = { en = "Breaks" }, briefing = { en = "It may break at 08:03." }, duration = "1h" }
local breaks = rng.uniform(0, 1) < 0.01
at("08:03", function() if breaks then set { shed = 2 } end end)
--- TestRunTableShowsTheDependency
scenario { id = "slow-auth", title = "Slow auth", briefing = "B", start = "09:00", duration = "20m",
  constants = { dep_share = 0.3, dep_ms = 3000, dep_name = "auth", retries = 2, wasted_work = 0.5 } }
--- TestRunSummaryGroupsRepeatsAndRoundsFigures
scenario { id = "every", title = "E", briefing = "B", start = "09:00", duration = "4h" }
function on_minute(row)
  if row.minute >= 20 and row.minute < 228 then
    say { en = "queue depth " .. math.floor(row.requests) }
  end
end
at("10:00", function() deploy { build = "4.2" } end)
outcome { name = "users_turned_away", unit = "users", value = function(rows) return 11383033.522347 end }
outcome { name = "late_share", value = function(rows) return 0.123456789 end }
outcome { name = "slow", unit = "min", value = function(rows) return 12.25 end }
outcome { name = "spend", unit = "$", value = function(rows) return 3.14159 end }
