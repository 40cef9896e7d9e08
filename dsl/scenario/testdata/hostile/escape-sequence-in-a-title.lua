scenario { id = "h", title = "Drill\27[2J", briefing = "B" }
