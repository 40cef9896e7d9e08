scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("ab"):rep(100000)
while true do s:gsub("a", function(c) return c end) end
