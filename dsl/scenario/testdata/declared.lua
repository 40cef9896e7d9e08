-- The declarations of TestDeclaredOnce: a run whose scenario{} passes what
-- seed 0's passed gets seed 0's declaration; one whose table differs reads
-- its own.
--- the-same-table
scenario { id = "d", title = { en = "D", fr = "D" }, briefing = "B", duration = "10m", constants = { boot_delay = 4 } }
--- a-draw
scenario { id = "d", title = "D", briefing = "B", duration = "10m", budget_left = rng.uniform(0.1, 0.9) }
--- a-draw-in-a-nested-table
scenario { id = "d", title = "D", briefing = "B", duration = "10m", constants = { boot_delay = 2 + math.floor(rng.uniform(0, 5)) } }
--- a-line-of-its-own
local x = rng.uniform(0, 1)
if x < 0.5 then
  scenario { id = "d", title = "D", briefing = "B", duration = "10m" }
else
  scenario { id = "d", title = "D", briefing = "B", duration = "10m" }
end
