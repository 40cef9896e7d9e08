scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("ab"):rep(1000)
local r = s:gsub("a", ("z"):rep(100000))
