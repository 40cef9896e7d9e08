--- TestGradeAScenariosOwnFigure
scenario { id = "turned-away", title = "T", briefing = "B", start = "11:00", duration = "1h" }
at("11:10", function() scale { base_demand = 1.6 } end)
outcome { name = "turned_away", unit = "requests", value = function(rows)
  local n = 0
  for _, r in ipairs(rows) do n = n + 60 * (r.requests * r.error_rate + r.requests - r.admitted) end
  return n
end }
grade { { metric = "turned_away", at_most = "reference * 1.05" } }
