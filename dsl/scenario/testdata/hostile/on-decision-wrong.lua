scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "2h" }
-- Seen only when someone decides: oncall check decides every kind of
-- decision on every other seed, so that these show.
function on_decision(action, row)
  if action.name == "rollback" then
    say { en = "Rollback by " .. action.by, fr = 3 }
  end
  if action.name == "min_instances" then
    set { min_instances = row.min_instances + 50 }
  end
end
