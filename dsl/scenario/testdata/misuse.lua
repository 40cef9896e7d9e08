scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  deploy { build = "4.4.0", hold_at = 0 } -- ### "hold_at = 0 is out of range"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  deploy { build = "4.4.0", error = 3 } -- ### "error = 3: it takes the message"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  log { level = "DEBUG", message = "x" } -- ### "level = \"DEBUG\": it takes"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  log { message = "" } -- ### "message = \"\": the message is 1 to 200 characters"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  log { level = "INFO" } -- ### "message is missing"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  log { message = "x", count = 1.5 } -- ### "count = 1\\.5: it takes the requests"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  set { dep_name = "" } -- ### "dep_name = \"\": the dependency's name is 1 to 40 characters"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  set { dep_share = 2 } -- ### "constant dep_share = 2 is out of range: it takes 0 to 1 share"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h" }
at("09:05", function()
  set { breaker = 1 } -- ### "breaker = 1: it takes true or false"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h", constants = { wasted_work = 0.5 } }
at("09:05", function()
  set { wasted_work = 1.5 } -- ### "constant wasted_work = 1\\.5 is out of range: it takes 0 to 1 share"
end)
---
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h",
  constants = { wasted_work = -0.1 } } -- ### "constant wasted_work = -0\\.1 is out of range: it takes 0 to 1 share"
