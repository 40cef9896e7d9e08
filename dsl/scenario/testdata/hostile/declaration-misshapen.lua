scenario {
  "drill",
  id = "Bad Id",
  title = { en = "T" },
  briefing = { en = "B", es = 4 },
  instances = 41,
  constants = 8,
  controls = { warmup = true, ttl_s = "long" },
  page = "",
}
