scenario { id = "p", title = "P", briefing = "B", duration = "1h",
  page = "burn1h >= 14.4 && burn_5m >= 14.4" }
