scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("a"):rep(300)
local i = s:find(("a?"):rep(300))
