-- Values each in range that disagree together: check plays on with a
-- fleet that fits, says which, and reports what the callbacks do.
scenario {
  id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  instances = 30,
  constants = { max_instances = 12 },
  controls = { min_instances = 20 },
}
at("09:10", function() scale { db_capacty = 0.5 } end)
