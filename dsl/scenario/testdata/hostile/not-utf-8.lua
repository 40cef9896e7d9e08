scenario { id = "h", title = "H", briefing = "B" }
say "café"
