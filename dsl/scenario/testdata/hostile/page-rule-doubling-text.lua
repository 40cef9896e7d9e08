scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = "let a = 'xx' + 'xx'; let b = a + a; len(b) > 0 && burn_1h > 1" }
