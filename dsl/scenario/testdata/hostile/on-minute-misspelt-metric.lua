scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function on_minute(row)
  if row.burn1h > 1 then say("hot") end
end
