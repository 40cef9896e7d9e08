--- own-page: a scenario with its own page rule and half the workers per instance
scenario {
  id = "own-page", title = "Own page", briefing = "Its own page rule.", duration = 30,
  constants = { workers = 8, slo = 0.99 },
  page = "burn_1h >= 20 && burn_5m >= 20 || error_rate > 0.2",
}
