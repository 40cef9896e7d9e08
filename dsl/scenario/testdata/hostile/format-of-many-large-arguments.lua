scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local big = ("x"):rep(500000)
local s = string.format("%s%s%s", big, big, big)
