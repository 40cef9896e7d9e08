scenario {
  id = "r",
  title = "R",
  briefing = "B",
  budget_left = 2,
  constants = { boot_delay = 2000 },
  controls = { shed = 1.5, feature = 1 },
}
