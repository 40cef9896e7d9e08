scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- pairs() over a table whose 262,143 array slots are nil: each loop's
-- first step scans them all.
local t = {}
t[262143] = 1
t[262143] = nil
t.x = 1
function on_minute(row)
  for i = 1, 2000 do
    for k, v in pairs(t) do end
  end
end
