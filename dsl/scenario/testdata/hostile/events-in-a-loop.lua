scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(1, function()
  for i = 1, 1e9 do flush_cache() end
end)
