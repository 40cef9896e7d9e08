scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = { 3, 1, 2 }
table.sort(t, function(a, b) while true do end end)
