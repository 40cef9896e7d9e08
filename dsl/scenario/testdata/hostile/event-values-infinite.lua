scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(2, function()
  set { db_capacity = 1 / 0 }
end)
at(3, function()
  deploy { build = "bad", rollout = math.huge }
end)
