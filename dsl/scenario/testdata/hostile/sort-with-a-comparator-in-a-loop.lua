scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = {}
for i = 1, 5000 do t[i] = (i * 7919) % 5000 end
while true do table.sort(t, function(a, b) return a > b end) end
