scenario { id = "h", title = "H", briefing = "B", duration = "7d" }
-- Five problems a minute for a week: oncall check notes them once, and
-- ends each seed after its callbacks have failed 100 times.
function on_minute(row)
  deploy { biuld = "bad", rollout = -2, "now", error_rate = "x", cpu = 99 }
end
