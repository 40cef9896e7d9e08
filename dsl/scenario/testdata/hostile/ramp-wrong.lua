scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function() ramp { app_ms = "fast", db_capacty = 2, workers = 100, over = "soon" } end)
at("09:11", function() ramp { app_ms = 120 } end)
at("09:12", function() ramp { over = "30m" } end)
at("09:13", function() ramp { shed = 0.5, over = 10 } end)
