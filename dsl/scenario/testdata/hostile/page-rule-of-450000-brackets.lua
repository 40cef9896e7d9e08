-- expr's parser recursed for each bracket: 450,000 took a gigabyte of
-- stack, half a million overflowed it.
scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h",
  page = ("("):rep(450000) .. "burn_1h > 1" }
