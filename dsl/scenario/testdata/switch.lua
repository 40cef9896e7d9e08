--- TestSwitchesRunWhatTheyDo
scenario { id = "s", title = "S", briefing = "B", start = "09:00", duration = "1h",
  labels = { feature = { en = "Search suggestions", fr = "Suggestions" }, shed = "Crawlers turned away" } }
local frozen = false
switch { id = "freeze", label = { en = "Deploy freeze", fr = "Gel des déploiements" }, help = "No deploy ships while it is on.",
  on = function(ctx)
    frozen = true
    say { en = "freeze " .. tostring(ctx.on) .. " at " .. ctx.time .. " (" .. ctx.id .. ")" }
  end,
  off = function(ctx)
    frozen = false
    say { en = "thaw at " .. ctx.time }
  end }
switch { id = "kill-rules", label = "Rule set", initially = true,
  off = function() set { app_ms = 40 } end }
at(30, function()
  if not frozen then deploy { build = "4.2", error_rate = 0.2 } end
  say { en = "scheduled" }
end)
--- TestSwitchesInACheck
scenario { id = "s", title = "S", briefing = "B", duration = "1h" }
switch { id = "broken", label = "Broken", on = function() set { db_capacity = -1 } end, off = function() end }
