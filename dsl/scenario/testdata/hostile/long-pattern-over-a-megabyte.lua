scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- No repetition, but 200 classes tried at each of half a million positions.
local s = ("a"):rep(500000)
local p = ("[%a%d]"):rep(200) .. "b"
for i = 1, 200 do s:find(p) end
