scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
outcome { name = "late_say", value = function(rows)
  say { en = "too late" }
  return #rows
end }
