-- A scenario with a mistake of every kind that check finds, each on the
-- line after a comment --! that names its kind: one run of oncall check
-- reports each with its line and column (TestCheckFindsEveryMistakeAtOnce).
scenario {
  id = "every-mistake",
  title = "Every mistake",
  briefing = "A shift whose file has a mistake of every kind.",
  start = "09:00",
  duration = "2h",
  --! declaration
  budget_lft = 0.5,
  --! declaration
  constants = { boot_dely = 5 },
  --! declaration
  controls = { shed = 2 },
}

grade {
  --! grading
  { metric = "budget_used", at_most = "refrence + 0.01" },
  --! grading
  { metric = "db_overload", at_most = "reference + 5" },
  --! grading
  { metric = "cost", at_most = "reference * 1.5", weight = -1 },
}

outcome {
  name = "hot_minutes",
  --! declaration
  unit = 4,
  --! outcome functions
  value = function(rows) return rows.count + 1 end,
}

--! loading
scale { db_capacity = 0.5 }

--! declaration
switch { id = "freeze", label = "Deploy freeze", on = function() end, colour = "red" }

at("09:10", function()
  --! callbacks
  deploy { build = "4.2.0", eror_rate = 0.1 }
end)

at("09:20", function()
  --! callbacks
  say(incident_name)
end)

at("09:30", function()
  --! callbacks
  flush_cache(0.5, "now")
end)

at("09:40", function()
  --! callbacks
  lose_instances { count = 6, share = 0.6 }
end)

--! declaration
at("12:00", function() flush_cache() end)

function on_minute(row)
  --! callbacks
  if row.burn1h > 2 then say "hot" end
end

function on_decision(action, row)
  --! callbacks
  if action.name == "shed" then set { feature = "off" } end
end

--! surge
function surge(t)
  if t == 30 then return "lots" end
  return 1
end
