scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "2h" }
inject { id = "Surge!", title = "A surge", effect = function(ctx) end }
inject { id = "spike", title = { en = "A spike", xx = "?" }, effect = function(ctx) end }
inject { id = "flush", title = "A flush", effect = "flush_cache()" }
inject { id = "flush2", title = "Flush", effect = function(ctx) end, when = "09:30" }
inject { title = "No id", effect = function(ctx) end }
inject { id = "twice", title = "Once", effect = function(ctx) end }
inject { id = "twice", title = "Twice", effect = function(ctx) end }
at("09:10", function() inject { id = "late", title = "Late", effect = function(ctx) end } end)
inject "spike"
