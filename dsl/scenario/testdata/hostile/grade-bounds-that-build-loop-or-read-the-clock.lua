scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
grade {
  { metric = "cost", at_most = "let a0 = 'xxxxxxxx'; let a1 = a0 + a0; len(a1) * 1.0" },
  { metric = "cost", at_most = "all(1..100000, {all(1..100000, # > 0)}) ? 1 : 2" },
  { metric = "cost", at_most = "reference + now().Second()" },
  { metric = "cost", at_most = "reference * 2" },
  { metric = "cost", at_most = 1, weight = 1e308 },
}
