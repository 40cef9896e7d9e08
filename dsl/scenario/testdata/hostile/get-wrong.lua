scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function() local cap = get(4000) end)
at("09:11", function() local cap = get("db_capacty") end)
at("09:12", function() local left = get("rollback") end)
at("09:13", function() local p99 = get("p99_ms") end)
at("09:14", function()
  if get("feature") and get("db_capacity") < 5000 then say "fine" end
end)
