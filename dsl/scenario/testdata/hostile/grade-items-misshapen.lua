scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
grade {
  { at_most = 3 },
  { metric = "cost", at_most = 2, wieght = 2 },
  "cost",
  best = { metric = "cost", at_most = 1 },
}
