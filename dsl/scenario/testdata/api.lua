--- TestPageRuleFromTheScenario
scenario { id = "p", title = "P", briefing = "B", duration = 30, page = "utilization > 0.1 && minute >= 20 && feature" }
--- TestClockCountsFromTheStart
scenario { id = "c", title = "C", briefing = "B", start = "23:00", duration = "3h" }
at(1, function() say(clock("23:30") .. " " .. clock("00:15") .. " " .. clock("23:00")) end)
--- TestDeclarationReadsEveryField
scenario {
  id = "d", title = { en = "D", fr = "Dé" }, briefing = "Brief",
  start = "10:30", duration = "1h30m", budget_left = 0.5, warm = 0.25, instances = 12,
  constants = { db_capacity = 3000, boot_delay = 5 },
  controls = { min_instances = 8, autoscaling = false, ttl_s = 120, shed = 0.2, feature = false, target_utilization = 0.5 },
}
grade { { metric = "cost", at_most = 100 }, { metric = "availability", at_least = "reference - 0.001", weight = 3 } }
