-- tape draws from its stream in surge() and at(), reads the run
-- (get(), and the constants scale{} checks) and says what it read: a run
-- whose policy raises min_instances reads otherwise than the one recorded.
--- tape
scenario { id = "tape", title = "T", briefing = "B", start = "10:00", duration = "1h" }
local size = 1 + rng.uniform(0, 2)
function surge(t)
  local s = 1
  for i = 1, 40 do s = s + rng.uniform(0, 0.001) end
  if t > 20 and t < 40 then return s * size end
  return s
end
at("10:05", function() scale { db_capacity = 0.5 } end)
at("10:10", function()
  if get("min_instances") > 12 then say("a big fleet") else say("a small fleet") end
end)
at("10:30", function() scale { db_capacity = 1 } end)
at("10:45", function() say("the end is near: " .. get("db_capacity")) end)
--- hoard: a script that keeps more each minute, for the memory budget
scenario { id = "hoard", title = "H", briefing = "B", start = "10:00", duration = "1h" }
local kept = {}
for m = 1, 50 do
  at(string.format("10:%02d", m), function()
    kept[#kept + 1] = string.rep(string.char(65 + m % 26), 16384 * m)
  end)
end
--- watcher: a script that sees the decisions and computes an outcome
scenario { id = "watcher", title = "W", briefing = "B", start = "10:00", duration = "1h" }
local size = 1 + rng.uniform(0, 2)
local decided = 0
function surge(t)
  local s = 1 + rng.uniform(0, 0.04)
  if t > 25 and t < 45 then s = s * size end
  return s
end
function on_decision(action, row)
  decided = decided + 1
  if action.name == "min_instances" then scale { db_capacity = 0.8 } end
end
at("10:05", function() scale { db_capacity = 0.5 } end)
at("10:30", function() say("decisions so far: " .. decided) end)
outcome {
  name = "decisions",
  value = function(rows) return decided + #rows / 1000 end,
}
