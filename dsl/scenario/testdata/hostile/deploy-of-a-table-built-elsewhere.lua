scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
local release = { build = "4.2.1", cpu = 0 }
at("09:10", function()
  deploy(release)
end)
