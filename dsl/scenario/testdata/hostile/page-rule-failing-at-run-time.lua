scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = "[1, 2][int(burn_1h) + 3] > 0" }
