scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = {}
for i = 1, 1e9 do t[i] = { i } end
