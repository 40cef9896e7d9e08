scenario({ id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }, { id = "h2" })
