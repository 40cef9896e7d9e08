scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  constants = { db_capacity = 1 / 0, boot_delay = 0 / 0 }, budget_left = 0 / 0 }
