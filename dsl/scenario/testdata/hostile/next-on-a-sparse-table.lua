scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- next() scans the 262,143 nil slots of the array before the key it finds.
local t = {}
t[262143] = 1
t[262143] = nil
t.x = 1
while true do local k = next(t) end
