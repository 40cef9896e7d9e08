--- TestCheckSharesOneBudgetOverItsSeeds
scenario { id = "greedy", title = "G", briefing = "B", duration = 10 }
local x = 0
for i = 1, 90000 do x = x + i end
