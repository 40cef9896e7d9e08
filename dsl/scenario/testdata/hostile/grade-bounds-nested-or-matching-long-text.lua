scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
grade {
  { metric = "cost", at_most = ("("):rep(450000) .. "reference" },
  { metric = "cost", at_most = ("-"):rep(100) .. "reference" },
  { metric = "cost", at_most = "'" .. ("a"):rep(4000) .. "' matches '(" .. ("a?"):rep(4000) .. ")' ? reference : 1.0" },
  { metric = "cost", at_most = "'aaa' matches (reference > 1 ? 'a' : 'b') ? reference : 1.0" },
}
