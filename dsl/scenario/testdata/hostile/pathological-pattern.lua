scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("a"):rep(5000)
local i = s:find(".-.-.-.-b")
