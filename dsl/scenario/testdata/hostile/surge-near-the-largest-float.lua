scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
-- Demand became +Inf, utilization NaN, and -f json failed to write.
function surge(t) return 1e308 end
