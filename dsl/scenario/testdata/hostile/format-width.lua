scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = string.format("%099999d", 1)
