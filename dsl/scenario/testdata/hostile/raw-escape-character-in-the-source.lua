scenario { id = "h", title = "H", briefing = "B" }
-- [2J
