scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = {}
for i = 1, 200000 do t[i] = i end
local n = select("#", unpack(t))
