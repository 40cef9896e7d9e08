scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- # scans the 262,143 nil slots of the array back from its end.
local t = {}
t[262143] = 1
t[262143] = nil
while true do local n = #t end
