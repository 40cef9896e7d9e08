scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = tostring(setmetatable({}, { __tostring = function() while true do end end }))
