scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t, s = {}, ("y"):rep(100000)
for i = 1, 1e6 do t[i] = s .. i end
