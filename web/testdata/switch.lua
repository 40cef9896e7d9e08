-- A test scenario of a switch of the scenario's own and of a control it
-- renames: a deploy freeze that stops a bad build shipping at 09:10 when
-- it is on, and the feature called "Search suggestions".
scenario {
  id = "test-switch", title = { en = "Deploy freeze (test)", fr = "Gel des déploiements (test)" },
  briefing = "A test of the console's switches.",
  start = "09:00", duration = "1h",
  labels = { feature = { en = "Search suggestions", fr = "Suggestions de recherche" } },
}

local frozen = false
switch {
  id = "freeze",
  label = { en = "Deploy freeze", fr = "Gel des déploiements", ur = "تعیناتی پر روک" },
  help = { en = "While it is on, no build ships." },
  on = function(ctx)
    frozen = true
    say { en = "Deploys are frozen.", fr = "Les déploiements sont gelés." }
  end,
  off = function(ctx) frozen = false end,
}

at("09:10", function()
  if not frozen then deploy { build = "bad", rollout = 2 } end
end)
