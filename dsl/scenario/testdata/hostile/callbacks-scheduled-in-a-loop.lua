scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local function f() end
for i = 1, 1e9 do at(30, f) end
