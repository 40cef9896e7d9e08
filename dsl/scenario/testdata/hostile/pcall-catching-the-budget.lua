scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
while true do
  pcall(function() while true do end end)
end
