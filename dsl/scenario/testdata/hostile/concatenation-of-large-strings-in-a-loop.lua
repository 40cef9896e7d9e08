scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- Each .. copies 600 KB, one instruction.
local s = ("x"):rep(300000)
while true do local t = s .. s end
