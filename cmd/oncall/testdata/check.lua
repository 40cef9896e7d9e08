--- TestCheckOnTheSeedsGiven: a template of the highest draw of seeds 0 to 19 (%.17g)
scenario { id = "late", title = "L", briefing = "B", duration = 60 }
local late = rng.uniform(0, 1) > %.17g
at(late and 75 or 30, function() flush_cache() end)
