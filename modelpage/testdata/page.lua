--- TestSampleErrorsNameTheLine
scenario { id = "d", title = "D", briefing = "B", duration = 30 }
at(10, function() scale { max_instances = 30 } end)
