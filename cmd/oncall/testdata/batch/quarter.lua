scenario { id = "quarter", title = "A quarter hour", briefing = "A bad build ships at 09:03.", start = "09:00", duration = "15m" }
at("09:03", function() deploy { build = "4.3.0", error_rate = rng.uniform(0.05, 0.2) } end)
grade {
  { metric = "budget_used", at_most = "reference + 0.01", weight = 2 },
  { metric = "cost",        at_most = "reference * 1.5",  weight = 1 },
}
