scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local s = ("a "):rep(500000)
while true do
  for w in s:gmatch("%a+") do end
end
