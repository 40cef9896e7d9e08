scenario { id = "h", title = "H", briefing = "B", duration = "7d" }
-- A build a minute, each rolling out over a week: every build shipped
-- keeps its share, and the engine would mix thousands of them each minute.
local n = 0
function on_minute(row)
  n = n + 1
  deploy { build = "b" .. n, error_rate = 0.001, rollout = 10080 }
end
