scenario { id = "h", title = "H", briefing = "B", duration = "7d" }
-- Five problems a minute for a week: oncall check notes them once, and
-- plays each seed on without on_minute once it has failed 100 times.
function on_minute(row)
  deploy { biuld = "bad", rollout = -2, "now", error_rate = "x", cpu = 99 }
end
