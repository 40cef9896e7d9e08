scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
outcome { name = "Minutes Over", value = 3, unit = 5 }
outcome { name = "cost", value = function(rows) return 1 end }
outcome { value = function(rows) return 1 end }
outcome { name = "slow", value = function(rows) return 1 end }
outcome { name = "slow", value = function(rows) return 2 end }
grade { { metric = "slwo", at_most = 3 } }
