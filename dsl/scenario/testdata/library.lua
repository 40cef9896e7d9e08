--- tamper
scenario { id = "tamper", title = "T", briefing = "B", start = "09:00", duration = "1h" }
local seen = ("ab"):rep(2) .. string.upper("x") .. math.floor(2.5) .. table.concat({ 1, 2 }, ",")
  .. rng.uniform(3, 3) .. type(deploy) .. tostring(getmetatable(string)) .. tostring(getmetatable(""))
local tries = {
  function() string.rep = function() return "hacked" end end,
  function() math.floor = function() return -1 end end,
  function() table.concat = function() return "hacked" end end,
  function() rng.uniform = function() return -1 end end,
  function() string[1] = "x" end,
  function() rawset(string, "upper", function() return "hacked" end) end,
  function() rawset(math, "floor", function() return -1 end) end,
  function() table.insert(table, "x") end,
  function() table.remove(rng) end,
  function() table.sort(math) end,
  function() setmetatable(string, nil) end,
  function() setmetatable("", nil) end,
  function() setmetatable(_G, nil) end,
  function() getmetatable("").__index.rep = nil end,
  function() getmetatable(_G).__index.deploy = nil end,
}
local ended = {}
for i, try in ipairs(tries) do
  local ok, err = pcall(try)
  ended[i] = ok and "done" or err
end
-- What a run may change is its own: its globals.
deploy, say2 = nil, say
at(1, function() say2(seen) end)
at(2, function() say2(table.concat(ended, "\n")) end)
--- TestUnknownNameSuggestsTheSameEachTime
local x = arg
scenario { id = "u", title = "U", briefing = "B", duration = "1h" }
