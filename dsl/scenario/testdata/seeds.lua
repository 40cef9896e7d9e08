-- The seeds of the fuzz tests besides the built-ins and the hostile cases,
-- each chunk named by the fuzz test it seeds.
--- FuzzCompile
scenario { id = "a", title = "A", briefing = "B", duration = 10 }
at(3, function() flush_cache() end)
--- FuzzCompile
scenario {
--- FuzzCompile
while true do end
--- FuzzCompile
local s = 'x' for i = 1, 40 do s = s .. s end
--- FuzzCompile
error({})
--- FuzzCompile
scenario { id = 1, title = {}, briefing = { en = 2 }, page = "" }
--- FuzzCompile
function surge(t) return -1 end
--- FuzzCheck
scenario { id = "a", title = "A", briefing = "B", durration = 10, instances = 40, constants = { max_instances = 5 } }
at(30, function() flush_cache() end)
--- FuzzCheck
scenario { id = "a", title = "A", briefing = "B", page = "burn_1hh > 1" }
grade { { metric = "x", at_most = "refrence" } }
outcome { name = "x", unit = 4, value = function(rows) return #rows end }
