-- An at() whose minute is drawn: the seeds that put it after the end of
-- the run are named, and the others play on.
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(50 + math.floor(rng.uniform(0, 20)), function() flush_cache() end)
