scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  while true do end
end)
