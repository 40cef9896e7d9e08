scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:20", function()
  error("the pager is on fire")
end)
