scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(5, function()
  local ok = pcall(deploy, { build = "bda" })
  error("gave up after a bad deploy")
end)
