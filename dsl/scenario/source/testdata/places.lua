--- TestPlacesFromTheTree
-- { a brace in a comment
scenario {
  id = "x", title = { en = "é { }", fr = "F" },
  controls = { shed = 0.5; feature = false },
  ["budget_left"] = 0.2,
  hook = function(a, b) local c, d = { 1 }, 2 return c end, warm = 1,
  "item", { nested = true },
  [3] = 7,
}
local s = "{"
at(5, function() deploy { build = "bad", rollout = 3 } deploy{build="good"} end)
grade({ { metric = "cost", at_most = 2 },
        { metric = "availability" } })
--- TestPlaceFallsBackToTheCall
local t = { build = 'bad' }
at(1, function() deploy(t) end)
