scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
deploy { build = "4.2.1" }
say "the deploy is out"
sya "hello"
local cap = get("db_capacity")
grade { { metric = "cots", at_most = 3 } }
