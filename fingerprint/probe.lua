-- The fingerprint's own probe: what the built-ins do one at a time, here
-- together, so that a change in how they meet moves the fingerprint too. A
-- dependency that slows and fails, clients that retry, a canary held at a
-- share and promoted, a leaking build, the logs of a build and of the
-- scenario, a flush, constants set, scaled and ramped, a surge, every
-- distribution of the scenario stream, on_minute, on_decision and a figure
-- of the scenario's own. It is not a lesson and grades nothing: it only has
-- to give the same figures for as long as the model does.
local dep_ms = rng.uniform(30, 90)
local fail_at = 35 + math.floor(rng.exponential(8))
local peak = math.max(1.1, rng.normal(1.4, 0.15))
local lines = rng.poisson(40)
local canary_at = 20 + math.floor(rng.uniform(0, 10))

scenario {
  id = "fingerprint-probe",
  title = { en = "Fingerprint probe" },
  briefing = { en = "Runs every part of the model at once, for the model's fingerprint." },
  start = "09:30",
  duration = "2h",
  budget_left = 0.4,
  warm = 0.8,
  constants = { retries = 2, dep_share = 0.3, dep_ms = dep_ms, dep_name = "ledger", max_instances = 30, db_capacity = 12000 },
  controls = { min_instances = 12 },
}

function surge(t)
  if t < 50 then return 1 end
  if t < 70 then return 1 + (peak - 1) * (t - 50) / 20 end
  return peak
end

at(10, function()
  deploy { build = "7.0.1", rollout = 3, cpu = 1.1, leak = { app_ms_per_min = 0.4 } }
end)

at(canary_at, function()
  deploy { build = "7.1.0", rollout = 4, hold_at = 0.1, error_rate = 0.06, error = "ledger client: nil map write" }
end)

at(canary_at + 12, function()
  resume_rollout()
end)

at(fail_at, function()
  set { dep_error_rate = 0.15, dep_timeout_ms = 800 }
  say { en = "Ledger team: we see errors on our side." }
end)

at(fail_at + 6, function()
  set { dep_error_rate = 0 }
  log { level = "INFO", source = "ledger", message = "ledger: errors back to normal", count = lines }
end)

at(60, function()
  flush_cache()
  scale { db_capacity = 0.9 }
end)

at(75, function()
  ramp { db_capacity = 11000, base_demand = 1100, over = "20m" }
end)

function on_minute(row)
  if row.p99_ms > 900 then
    log { level = "WARN", source = "probe", message = "p99 over 900 ms", count = 1 }
  end
end

local decisions = 0
function on_decision(action, row)
  decisions = decisions + 1
  if action.name == "breaker" and action.value then
    log { level = "INFO", source = "probe", message = "breaker opened at " .. row.time, count = decisions }
  end
end

outcome {
  name = "probe_warm_minutes",
  unit = "min",
  value = function(rows)
    local n = 0
    for _, r in ipairs(rows) do
      if r.warm > 0.9 then n = n + 1 end
    end
    return n
  end,
}
