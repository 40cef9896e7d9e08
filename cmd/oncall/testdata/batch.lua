--- TestBatchVsShowsTheGradedCriteria
scenario { id = "drill", title = "D", briefing = "B", duration = 30 }
grade { { metric = "cost", at_most = "reference * 1.2" } }
--- outcomeScenario: computes two figures of its own and grades one of them
scenario { id = "own-figures", title = "T", briefing = "B", start = "10:00", duration = "30m" }
grade { { metric = "slow_rows", at_most = "reference + 1" }, { metric = "rows", at_least = "reference" } }
outcome { name = "slow_rows", unit = "min", value = function(rows)
  local n = 0
  for _, r in ipairs(rows) do if r.p99_ms > 100 then n = n + 1 end end
  return n
end }
outcome { name = "rows", value = function(rows) return #rows end }
