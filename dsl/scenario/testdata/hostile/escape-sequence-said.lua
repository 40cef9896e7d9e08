scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at(3, function() say { en = "ok", fr = "\27]0;pwned\7" } end)
