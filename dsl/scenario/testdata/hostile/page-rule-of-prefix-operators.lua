scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = ("!"):rep(300000) .. "(burn_1h > 1)" }
