scenario { id = "w", title = "W", briefing = "B", budget_left = "most", duration = 90.5 }
