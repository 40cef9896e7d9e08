-- A declaration with problems does not stop the check: it plays on with
-- each faulty value at its default, says which where the run uses it, and
-- reports what the callbacks, surge and the outcomes do too.
scenario {
  id = "one-pass",
  title = "One pass",
  briefing = "Every problem at once.",
  start = "09:00",
  durations = "1h",
  constants = { boot_dely = 5 },
  controls = { shed = 2 },
}

grade {
  { metric = "db_overload", at_most = "refrence + 5" },
}

outcome { name = "hot_minutes", unit = 4, value = function(rows) return rows.count end }

at("09:10", function() deploy { build = "4.2", eror_rate = 0.1 } end)

function surge(t)
  if t == 30 then return "lots" end
  return 1
end
