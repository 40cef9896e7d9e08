-- The scenarios of TestOneCompilerRefusesTheSameEverywhere: each is a
-- template whose %s is the expression under test, on line 2 (the page
-- rule) or line 3 (the bound) of the file.
--- page-rule
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = [[%s]] }
--- bound
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
grade {
  { metric = "cost", at_most = [[%s]] },
}
