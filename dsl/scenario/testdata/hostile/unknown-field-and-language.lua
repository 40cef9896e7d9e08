scenario {
  id = "u",
  title = { en = "U", de = "V" },
  briefing = "B",
  duraton = "1h",
  controls = { min_instance = 3 },
}
