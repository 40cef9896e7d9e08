scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  reference = "../answers/h.rules",
  labels = { feature = "Search suggestions", featur = "Typo", shed = { en = "Two\nlines" }, rollback = 7 } }
