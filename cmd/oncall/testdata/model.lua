--- TestModelScenarioDraws
scenario {
  id = "drill",
  title = { en = "Drill" },
  briefing = { en = "A drill." },
  start = "10:00",
  duration = "1h",
  constants = { bad_error_rate = 0.1 + math.floor(rng.uniform(0, 11)) / 100 },
  page = "burn_5m >= 20",
}
at("10:30", function() set { db_capacity = 3000 } end)
