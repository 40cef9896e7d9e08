scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h", constants = { db_capacity = 2000 } }
at("09:10", function() scale { db_capacty = 0.5, ttl_s = 2, app_ms = -1, p99_ms = 2 } end)
at("09:11", function() scale { db_capacity = 0.0001 } end)
at("09:12", function() scale(0.5) end)
