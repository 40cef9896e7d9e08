scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deploy { build = 4.21, eror_rate = 0.1, cpu = 20, error_rate = "high", leak = { app_ms_per_mn = 2 } }
end)
