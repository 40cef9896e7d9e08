--- TestDependencyCanaryAndLogs
scenario { id = "t", title = "T", briefing = "B", start = "09:00", duration = "1h",
  constants = { dep_share = 0.2, dep_ms = 40, dep_name = "auth", retries = 2 } }
at("09:05", function()
  deploy { build = "4.4.0", error_rate = 0.5, rollout = 10, hold_at = 0.1, error = "NullPointerException in checkout" }
end)
at("09:10", function() resume_rollout() end)
at("09:12", function() pause_rollout() end)
at("09:19", function() say(get("dep_name")) end)
at("09:20", function()
  set { dep_ms = 3000, dep_name = "auth-v2" }
  log { level = "WARN", source = "cert", message = "certificate expires in 10 minutes", count = 3 }
end)
at("09:30", function() set { breaker = true } end)
--- TestWastedWorkFromAScenario
scenario { id = "t", title = "T", briefing = "B", start = "08:00", duration = "80m",
  constants = { retries = 3, wasted_work = 1 }, controls = { min_instances = 7, autoscaling = false } }
function surge(t) if t >= 30 and t <= 39 then return 1.6 end return 1 end
at("09:00", function()
  say(tostring(get("wasted_work")))
  set { wasted_work = 0 }
end)
