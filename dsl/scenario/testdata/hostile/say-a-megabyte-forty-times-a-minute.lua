scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local big = ("x"):rep(1000000)
function on_minute(row)
  for i = 1, 40 do say(big) end
end
