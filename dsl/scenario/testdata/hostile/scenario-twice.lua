scenario { id = "a", title = "A", briefing = "B" }
scenario { id = "b", title = "B", briefing = "B" }
