scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
outcome { name = "hot_minutes", value = function(rows) return "many" end }
outcome { name = "p99_at_the_end", value = function(rows) return rows[#rows].p99ms end }
grade { { metric = "hot_minutes", at_most = "reference + 1" } }
