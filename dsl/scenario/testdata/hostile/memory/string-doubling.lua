scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = "x"
while true do s = s .. s end
