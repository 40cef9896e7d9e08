-- A stray call at the top level stops the main chunk; check reports it,
-- and still dry-runs the callbacks scheduled before and after it.
scenario { id = "stray", title = { en = "Stray" }, briefing = { en = "b" }, start = "09:00", duration = "1h" }

at("09:10", function() deploy { build = "4.3", error_rate = 2, cpuu = 1 } end)

scale { db_capacity = 0.5 }

function on_minute(row)
  if row.burn1h > 3 then say { en = "hot" } end
end
