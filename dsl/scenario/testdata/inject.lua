--- TestInjectsApplyAtTheirMinute
scenario { id = "i", title = "I", briefing = "B", start = "09:00", duration = "1h" }
local extra_until = -1
inject { id = "surge", title = { en = "A surge", fr = "Un pic" }, effect = function(ctx)
  extra_until = ctx.minute + 10
  say { en = "surge at " .. ctx.time .. " (" .. ctx.id .. ")" }
end }
inject { id = "flush", title = "The cache is flushed", effect = function(ctx)
  flush_cache()
  set { boot_delay = 9 }
end }
at(20, function() say { en = "scheduled" } end)
function surge(t)
  if t < extra_until then return 2 + rng.uniform(0, 1) end
  return 1
end
