-- at() with a minute of the run, before scenario{} has declared the run.
at(5, function() deploy { build = "x" } end)
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
