-- leftovers is a scenario that leaves something of its run in every place
-- a Lua state could carry it to the next run, and says what it finds of
-- the run before: its globals (set and rawset), a function it defines, the
-- upvalues its callbacks change, a table with a metatable kept in a global,
-- what a caught error leaves inside a callback; on some seeds a callback
-- fails, and the run stops. Whatever survives a reset shows in its trace.
--- leftovers
scenario { id = "leftovers", title = "Leftovers", briefing = "What a run leaves behind", start = "09:00", duration = "40m" }
local before = rawget(_G, "kept")
local seen = { tostring(rawget(_G, "leftover")), tostring(rawget(_G, "raw")), type(rawget(_G, "on_minute")), type(before), tostring(before and before.anything) }
leftover = (rawget(_G, "leftover") or 0) + 1
rawset(_G, "raw", rng.uniform(0, 1))
local count = 0
kept = setmetatable({}, { __index = function() return count end })
seen[#seen + 1] = tostring(pcall(function() string.upper = nil end))
seen[#seen + 1] = tostring(pcall(setmetatable, _G, {}))
function on_minute(row)
  count = count + 1
  kept.last = row.minute
end
function surge(t) return 1 + count / 100 + kept.anything / 1000 end
at("09:05", function() say { en = table.concat(seen, ",") .. " " .. leftover .. " " .. count } end)
at("09:06", function()
  local ok = pcall(function()
    local z = count
    local f = function() return z end
    error("caught " .. f())
  end)
  say { en = "caught: " .. tostring(not ok) }
end)
if rng.uniform(0, 1) < 0.3 then
  at("09:20", function() error("a callback that fails on some seeds") end)
end
