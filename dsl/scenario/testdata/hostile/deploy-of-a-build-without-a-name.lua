scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deploy { build = " 4.2.1", leak = 1.5, rollout = 3 }
end)
