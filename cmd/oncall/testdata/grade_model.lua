--- drill
scenario { id = "drill", title = "Drill", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function() deploy { build = "bad", rollout = 3 } end)
grade {
  { metric = "budget_used", at_most = "reference + 0.01" },
  { metric = "cost",        at_most = "reference * 1.2" },
}
--- storm
scenario { id = "storm", title = "Storm", briefing = "B", start = "08:00", duration = "90m",
  constants = { base_demand = 1400 } }
at("08:20", function() set { db_capacity = 2500 } end)
grade {
  { metric = "error_requests", at_most = "reference * 1.2 + 1000" },
  { metric = "cost",           at_most = "reference * 1.5" },
}
