scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
at("09:10", function() lose_instances { count = 4, share = 0.5 } end)
at("09:11", function() lose_instances {} end)
at("09:12", function() lose_instances { count = -1 } end)
at("09:13", function() lose_instances { count = 2.5 } end)
at("09:14", function() lose_instances { share = 0 } end)
at("09:15", function() lose_instances { share = 1.5 } end)
at("09:16", function() lose_instances { 6 } end)
at("09:17", function() lose_instances { shar = 0.5 } end)
at("09:18", function() lose_instances(6) end)
at("09:19", function() lose_instances { count = 1 / 0 } end)
at("09:20", function() lose_instances { count = 0 } end)
at("09:21", function() lose_instances { share = 1 } end)
lose_instances { count = 1 }
