scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
switch { id = "pause-jobs", label = "Pause the job queue", initially = true,
  on = function(ctx) set { db_capacity = 4000 } end,
  off = function(ctx)
    set { db_capacity = -ctx.minute }
  end }
