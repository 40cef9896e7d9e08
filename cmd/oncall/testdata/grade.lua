--- TestGoldenRecordAssignment
scenario { id = "drill", title = "Drill", briefing = "B", start = "09:00", duration = "1h" }
grade { { metric = "cost", at_most = "reference * 1.2" } }
--- TestGradeRefusesAnEditedScenario
scenario { id = "drill", title = "Drill", briefing = "B", start = "09:00", duration = "1h" }
grade { { metric = "cost", at_most = "reference * 1.2" } }
--- TestGoldenRecordWarnsOfAnIncidentThatDoesNotVary
scenario { id = "fixed", title = "F", briefing = "B", start = "09:00", duration = "1h",
  budget_left = 0.2, constants = { bad_error_rate = 0.15 } }
at("09:10", function() deploy { build = "bad", rollout = 3 } end)
grade {
  { metric = "budget_used", at_most = "reference + 0.01" },
  { metric = "cost",        at_most = "reference * 1.5" },
}
--- TestGradeNamesAStoppedRunOnce
scenario { id = "fragile", title = "F", briefing = "B", duration = "1h" }
function on_minute(row)
  if row.shed > 0 then error("shedding breaks the probe") end
end
grade { { metric = "cost", at_most = "reference * 1.2" } }
--- staleDrill
scenario { id = "drill", title = "Drill", briefing = "B", start = "09:00", duration = "1h" }
grade { { metric = "cost", at_most = "reference * 1.2" } }
