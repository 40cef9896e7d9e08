local incident = clock("09:10")
local recovery = clock("09:40") + 5
local function later() return clock("10:00") end
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "2h" }
at(incident, function() say("incident") end)
at(recovery, function() say("recovered") end)
