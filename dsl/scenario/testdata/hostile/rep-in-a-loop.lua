scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
while true do local s = ("x"):rep(1000000) end
