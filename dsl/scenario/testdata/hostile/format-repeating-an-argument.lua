scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- Go's fmt read %[1]s: a thousand copies of 500 KB in one call.
local big = ("x"):rep(500000)
local s = string.format(("%[1]s"):rep(1000), big)
