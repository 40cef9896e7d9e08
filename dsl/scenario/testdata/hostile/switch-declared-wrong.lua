scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
switch { id = "freeze", label = "Deploy freeze", on = function() end, off = function() end }
switch { id = "freeze", label = "Freeze again", on = function() end }
switch { id = "Kill", label = "Kill switch", on = function() end }
switch { id = "quiet", label = "Does nothing" }
switch { id = "sloppy", label = "Sloppy\nlabel", on = "set{}", initially = "yes", colour = "red" }
switch { id = "nolabel", off = function() end }
at("09:10", function()
  switch { id = "late", label = "Late", on = function() end }
end)
