scenario { id = "p", title = "P", briefing = "B", duration = "1h", page = "burn_1h + 2" }
