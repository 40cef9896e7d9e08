scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local f = ("%99.99f"):rep(2000)
local args = {}
for i = 1, 2000 do args[i] = 1e300 end
while true do local s = string.format(f, unpack(args)) end
