scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = {}
for i = 1, 262144 do t[i] = (i * 7919) % 262144 end
for k = 1, 100 do table.sort(t) end
