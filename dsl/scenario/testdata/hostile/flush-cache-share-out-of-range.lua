scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function() flush_cache(0) end)
at("09:11", function() flush_cache(1.5) end)
at("09:12", function() flush_cache("half") end)
at("09:13", function() flush_cache(0 / 0) end)
at("09:14", function() flush_cache(0.5) end)
at("09:15", function() flush_cache() end)
at("09:16", function() flush_cache(nil) end)
