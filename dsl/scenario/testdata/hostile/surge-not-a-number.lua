scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function surge(t)
  if t < 5 then return 1 end
  return 0 / 0
end
