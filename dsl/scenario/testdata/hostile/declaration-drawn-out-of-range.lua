-- A value of the declaration drawn from the scenario stream, out of range
-- on some seeds: one problem, whatever value each seed drew, with the seeds
-- that drew one; the dry run plays those seeds on with the default.
local left = rng.uniform(0.5, 1.5)
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h", budget_left = left }
at("09:10", function() deploy { build = "x", eror_rate = 0.1 } end)
