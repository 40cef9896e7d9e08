scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function()
  deploy { biuld = "bad", rollout = -2, "now" }
end)
