-- A test scenario of the console's logs panel and dependency tiles: a
-- dependency ("auth") called by 30 % of the requests slows down at 09:10
-- and pages; a canary build is held at 10 % from 09:05, failing some of
-- its requests; the scenario writes its own lines, one of them in Urdu
-- and one with an Arabic name, so that the panel isolates them.
scenario {
  id = "test-dependency", title = { en = "Slow auth (test)", ur = "سست auth (ٹیسٹ)" },
  briefing = "A test of the logs panel: auth slows down at 09:10.",
  start = "09:00", duration = "1h",
  constants = { dep_share = 0.3, dep_ms = 20, dep_name = "auth", dep_timeout_ms = 2000 },
}

at("09:02", function()
  log { level = "INFO", source = "deploy", message = "canary 4.5.0 starting at 10 %", count = 1 }
end)
at("09:05", function()
  deploy { build = "4.5.0", error_rate = 0.2, rollout = 20, hold_at = 0.1, error = "NullPointerException in checkout" }
end)
at("09:08", function()
  log { level = "WARN", source = "auth", message = "auth: p50 latency above 500 ms", count = 3 }
  log { level = "INFO", source = "cert", message = "سرٹیفکیٹ کی میعاد ختم ہونے والی ہے", count = 1 }
end)
at("09:10", function()
  ramp { dep_ms = 3000, over = "5m" }
end)
