--- TestFleetHealthFromAScenario
scenario { id = "f", title = "F", briefing = "B", start = "09:00", duration = "30m", constants = { boot_delay = 600 } }
at("09:05", function() lose_instances { share = 0.6 } end)
at("09:06", function() lose_instances { count = 1 } end)
at("09:10", function() flush_cache(0.5) end)
at("09:11", function() flush_cache(1) end)
at("09:12", function() flush_cache() end)
at("09:13", function() set { launch_failure = 1 } end)
function on_minute(row)
  if row.time == "09:14" then say(string.format("%g %g", get("launch_failure"), get("boot_delay"))) end
end
