scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
grade {
  { metric = "budget_usd", at_most = "reference + 0.01" },
  { metric = "cost", at_most = "reference *", weight = -1 },
  { metric = "cost", at_least = 1, at_most = 2 },
}
