scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local line = ("y"):rep(1999)
function on_minute(row)
  for i = 1, 40 do say(line) end
end
