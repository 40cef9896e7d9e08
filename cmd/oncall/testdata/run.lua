--- TestRunStoppedJSON
scenario { id = "breaks", title = { en = "Breaks" }, briefing = { en = "It may break at 08:03." }, duration = "1h" }
local breaks = rng.uniform(0, 1) < 0.01
at("08:03", function() if breaks then set { shed = 2 } end end)
--- TestRunTableShowsTheDependency
scenario { id = "slow-auth", title = "Slow auth", briefing = "B", start = "09:00", duration = "20m",
  constants = { dep_share = 0.3, dep_ms = 3000, dep_name = "auth", retries = 2, wasted_work = 0.5 } }
