--- beside
scenario { id = "freeze-drill", title = "Freeze drill", briefing = "B", start = "09:00", duration = "1h",
  budget_left = 0.5, reference = "answers/freeze.rules" }
switch { id = "freeze", label = "Deploy freeze", on = function() set { bad_error_rate = 0 } end,
  off = function() set { bad_error_rate = 0.05 } end }
at("09:10", function() deploy { build = "bad", rollout = 2 } end)
grade {
  { metric = "budget_used", at_most = "reference + 0.01" },
  { metric = "cost",        at_most = "reference * 1.5" },
}
--- inline
scenario { id = "inline-drill", title = "Inline drill", briefing = "B", start = "09:00", duration = "1h",
  budget_left = 0.5, reference = [[
rule "freeze when paged"
  when paging && !is_on("freeze")
  do   switch("freeze", true)
]] }
switch { id = "freeze", label = "Deploy freeze", on = function() set { bad_error_rate = 0 } end }
at("09:10", function() deploy { build = "bad", rollout = 2 } end)
grade { { metric = "budget_used", at_most = "reference + 0.01" } }
--- inline-wrong
scenario { id = "inline-wrong", title = "Inline wrong", briefing = "B", start = "09:00", duration = "1h",
  reference = [[
rule "freeze when paged"
  when paging
  do   switch("freez", true)
]] }
switch { id = "freeze", label = "Deploy freeze", on = function() end }
grade { { metric = "cost", at_most = "reference * 1.2" } }
