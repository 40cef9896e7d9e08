-- Go's regexp takes the text's length times the pattern's: 6,000 by
-- 18,000 bytes, about a second each minute.
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = "burn_1h > 1 || '" .. ("a"):rep(6000) .. "' matches '(" .. ("a?"):rep(6000) .. ")" .. ("a"):rep(6000) .. "'" }
