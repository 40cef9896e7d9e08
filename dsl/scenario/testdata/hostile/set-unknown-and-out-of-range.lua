scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
function on_minute(row)
  if row.minute == 3 then
    set {
      db_capacty = 3000,
      shed = 2,
      boot_delay = "soon",
    }
  end
end
