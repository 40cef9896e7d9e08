scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- One string.find a minute, with a bracket class of 450,000 bytes tried on
-- each of 900 characters: 400 million comparisons in one call of fewer
-- than 1,024 instructions.
local class = string.format("[%sa]*", ("b"):rep(450000))
local s = ("a"):rep(900)
function on_minute(row) s:find(class) end
