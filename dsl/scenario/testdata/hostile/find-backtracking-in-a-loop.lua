scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- Each call backtracks about 5 million times, 0.6 s inside one string.find.
local s = ("a"):rep(3161)
for i = 1, 1e9 do s:find(".-b") end
