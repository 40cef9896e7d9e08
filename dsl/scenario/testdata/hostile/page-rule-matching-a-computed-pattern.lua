scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = "'aaa' matches (burn_1h > 1 ? 'a+' : 'b+')" }
