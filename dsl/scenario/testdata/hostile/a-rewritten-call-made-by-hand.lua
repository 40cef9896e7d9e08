scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
_G["#const"](scenario, 0)
