scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = "burn_1h > 1 && all(1..100000, {all(1..100000, # > 0)})" }
