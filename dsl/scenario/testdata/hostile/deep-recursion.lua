scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local function f(n) return 1 + f(n + 1) end
f(1)
