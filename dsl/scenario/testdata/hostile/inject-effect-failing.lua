scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "2h" }
inject { id = "bad-deploy", title = "A bad deploy", effect = function(ctx)
  deploy { build = "4.3", error_rate = 2 }
end }
inject { id = "typo", title = "A typo", effect = function(ctx)
  flush_cahce()
end }
inject { id = "reads", title = "Reads ctx", effect = function(ctx)
  if ctx.minute ~= now() or ctx.id ~= "reads" then error("ctx is wrong: " .. ctx.id) end
  say { en = "at " .. ctx.time }
end }
