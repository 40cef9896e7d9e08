scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local t = setmetatable({}, { __index = function(t, k) return t[k] end })
local v = t.x
