-- A test scenario without a dependency: the console shows no dependency
-- tiles or chart for it. From 09:05 the disk fills, a line a minute.
scenario {
  id = "test-nodependency", title = "No dependency (test)",
  briefing = "A quiet hour without a dependency.",
  start = "09:00", duration = "1h",
}

function on_minute(row)
  if now() >= 4 then
    log { level = "WARN", source = "app", message = "disk 80 % full", count = 2 }
  end
end
