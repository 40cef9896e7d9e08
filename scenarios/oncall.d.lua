---@meta oncall
-- Annotations for the Lua language server (LuaLS): completion, hover text
-- and type checks for oncall scenarios. This file is not a scenario and is
-- never run; keep it beside your scenarios (with .luarc.json) or point your
-- editor's Lua.workspace.library at it. The languages, constants, controls,
-- actions, metrics and outcomes are written from oncall's own tables by
-- `go generate ./scenarios` (internal/luadecl); edit its template, not this
-- file.

---A text in the languages of the console; English is required, the others
---fall back to it.
---@class oncall.Text
---@field en string English
---@field bs? string Bosnian
---@field id? string Indonesian
---@field es? string Spanish
---@field ur? string Urdu
---@field fr? string French

---@class oncall.Scenario
---@field id string Lower-case letters, digits and -, e.g. "cache-flush".
---@field title string|oncall.Text What the scenario is called.
---@field briefing string|oncall.Text What the player reads before the shift: what they face, not the answer.
---@field start? string Time of day of minute 0, "HH:MM" (default "08:00").
---@field duration? string|integer "2h", "90m", "1h30m", "1d" or minutes, up to a week (default "24h").
---@field budget_left? number Share of the month's error budget left at the start, 0 to 1 (default 1).
---@field warm? number How full the cache is at the start, 0 to 1 (default 1).
---@field instances? integer Instances serving at the start, 0 to 40 (default 0: min_instances).
---@field constants? oncall.Constants Any constant of the model.
---@field controls? oncall.Controls Any control's starting value (not a decision).
---@field page? string The page rule: an expression over the metrics that is true or false, e.g. "burn_1h >= 14.4 && burn_5m >= 14.4" (default: MODEL.md's multiwindow rule).
---@field reference? string The reference policy, which golden record runs and grade compares with: a file beside the scenario, e.g. "my-drill.rules" (a text on one line ending in .rules, relative to the scenario's folder), or its rules, e.g. [[ rule "shed when paged" when paging do set_shed(1) ]].
---@field labels? oncall.Labels The model's controls the scenario names in words of its own, e.g. { feature = "Search suggestions" }: the console says them everywhere it names the control.

---Labels of the model's controls and actions, each a line of text in one language or several.
---@class oncall.Labels
---@field min_instances? string|oncall.Text
---@field autoscaling? string|oncall.Text
---@field target_utilization? string|oncall.Text
---@field ttl_s? string|oncall.Text
---@field warmup? string|oncall.Text
---@field shed? string|oncall.Text
---@field feature? string|oncall.Text
---@field rollback? string|oncall.Text
---@field breaker? string|oncall.Text
---@field pause_rollout? string|oncall.Text
---@field resume_rollout? string|oncall.Text

---One line of grade{}: an outcome held at most or at least to a bound.
---@class oncall.Criterion
---@field metric oncall.Outcome
---@field at_most? number|string A number, or an expression over `reference` (the reference policy's outcome on the same seed), e.g. "reference * 1.25".
---@field at_least? number|string Same, as a floor.
---@field weight? number Above 0, at most 1,000,000 (default 1).
---@field scoring? "partial"|"pass" How a seed that misses the bound scores: partial credit (the default) or none.

---A build shipped by deploy{}. Production shows its name and rollout; what
---it does is in its properties, and it is bad only through them.
---@class oncall.Deploy
---@field build string|"bad" The build's name, as production announces it, e.g. "4.2.1". "bad" without properties is the model's bad build (bad_error_rate, bad_cpu).
---@field rollout? number Minutes until the build serves all traffic, 1 to 10080 (default 1).
---@field error_rate? number Share of its requests the build fails, 0 to 1 (default 0).
---@field cpu? number The build's CPU factor, 0.1 to 11 (default 1: as the build before; 1.25: a quarter more).
---@field leak? oncall.Leak A leak: time the build adds for every minute it runs, until a rollback.
---@field hold_at? number A canary: the share of traffic, above 0 and up to 1, at which the rollout stops until resume_rollout() (default 1: none).
---@field error? string The line its failing requests write in the logs, with its name (default "500 in a request handler").

---A line of the minute's logs, written after the engine's own.
---@class oncall.Log
---@field level? "ERROR"|"WARN"|"INFO" Default "INFO".
---@field source? string Who writes it, e.g. "cert", "app", "lb" (default "app"); 1 to 40 characters.
---@field message string The text, 1 to 200 characters; log_count("text") in a policy finds it.
---@field count? integer Requests (or times) that wrote it this minute, 0 to 1e12 (default 1).

---@class oncall.Leak
---@field app_ms_per_min number Application time added each minute since the deploy, 0 to 1000 ms.

---Instances taken out of the fleet by lose_instances{}: give exactly one of count and share.
---@class oncall.Lose
---@field count? integer Instances lost, a whole number, 0 or more; at most those serving are lost.
---@field share? number The share of the serving instances lost, above 0 and up to 1, rounded half up (0.6 of 10: 6).

---Factors for scale{}: each constant's value set, multiplied from now on (1 ends the scale).
---@class oncall.Scale: oncall.Constants

---Targets for ramp{}: each constant moves from its value in force to its target over `over`.
---@class oncall.Ramp: oncall.Constants
---@field over string|integer How long the ramp lasts: "30m", "1h" or minutes.

---A figure of the run that the scenario computes itself, and grade{} can grade.
---@class oncall.Outcome
---@field name string Lower-case letters, digits and _, not an outcome of the model's, e.g. "minutes_over_capacity".
---@field value fun(rows: oncall.Row[]): number Computes the figure from every row of the run, once it is over.
---@field unit? string A short unit, e.g. "min".

---A surprise a game day's facilitator may fire at a team, at the minute
---the team's shift stands at.
---@class oncall.Inject
---@field id string Lower-case letters, digits and -, e.g. "second-deploy"; a facilitator fires it by its title.
---@field title string|oncall.Text What the facilitator fires, one line.
---@field effect fun(ctx: oncall.InjectContext) What it does, at the start of the minute it is fired at, after that minute's at() callbacks: deploy{}, set{}, say{}, flush_cache(), a value surge(t) reads.

---What an inject's effect is given.
---@class oncall.InjectContext
---@field id string The inject's id.
---@field minute integer The minute of the run it takes effect at.
---@field time string Its time of day, "HH:MM".

---A switch of the scenario's own, which the player, or a policy's
---switch("id", true), turns on or off as any control.
---@class oncall.Switch
---@field id string Lower-case letters, digits and -, e.g. "deploy-freeze"; a policy names it, switch("deploy-freeze", true).
---@field label string|oncall.Text What the console calls it, one line.
---@field help? string|oncall.Text What it does, as the console explains it.
---@field on? fun(ctx: oncall.SwitchContext) What turning it on does, at the start of the minute the decision takes effect, after that minute's at() callbacks: set{}, scale{}, ramp{}, flush_cache(), say{}, log{}, a value surge(t) reads.
---@field off? fun(ctx: oncall.SwitchContext) What turning it off does, the same way.
---@field initially? boolean Whether it is on when the shift starts (default false); on does not run for it.

---What a switch's on and off are given.
---@class oncall.SwitchContext
---@field id string The switch's id.
---@field on boolean Its new state.
---@field minute integer The minute of the run it takes effect at.
---@field time string Its time of day, "HH:MM".

---A decision on_decision() sees.
---@class oncall.Decision
---@field name string The control or action, e.g. "rollback", "min_instances", or "switch.<id>" for a switch of the scenario's.
---@field value number|boolean|nil Its new value (nil for an action).
---@field by string "player", or the name of the policy's rule that decided.

---Values for set{}: controls changed by someone else, constants changed by the world.
---@class oncall.Set: oncall.Controls, oncall.Constants

---@class oncall.Constants
---@field workers? integer Workers per instance, count; 1 to 64 (default 16)
---@field app_ms? number Application (CPU) time of a request, ms; 1 to 10000 (default 50)
---@field feature_ms? number Extra CPU time of the heavy feature, ms; 0 to 10000 (default 20)
---@field queries? number Database queries of a request, count; 0 to 100 (default 2)
---@field feature_queries? number Extra queries of the heavy feature, count; 0 to 100 (default 1)
---@field db_capacity? number Database capacity, queries/s; 1 to 1e+07 (default 4000)
---@field db_base_ms? number Query time of an idle database, ms; 0.01 to 1000 (default 5)
---@field db_cap_ms? number Longest query time, ms; 0.01 to 60000 (default 250)
---@field hot_objects? number Objects the cache serves, count; 1 to 1e+09 (default 20000)
---@field refill_tau? number Time constant of the cache's refill, τ, min; 0.1 to 10000 (default 30)
---@field warmup_rate? number Share of the cache the warm-up job loads a minute, share/min; 0 to 1 (default 0.12)
---@field warmup_minutes? integer How long a warm-up runs, min; 1 to 120 (default 6)
---@field warmup_queries? number Database load of the warm-up job, queries/s; 0 to 1e+06 (default 600)
---@field timeout_s? number Request timeout: a request that would wait longer fails, s; 0.01 to 600 (default 2)
---@field low_priority? number Share of traffic that shedding can reject, share; 0 to 1 (default 0.3)
---@field bad_error_rate? number Share of its requests a bad build fails, share; 0 to 1 (default 0.05)
---@field bad_cpu? number Extra CPU time of a bad build, a share of a request's (0.25: ×1.25), share; 0 to 10 (default 0.25)
---@field rollback_minutes? integer Minutes a rollback prepares, min; 1 to 120 (default 5)
---@field instance_price? number Price of an instance-hour, $/h; 0 to 1000 (default 0.4)
---@field scale_in_share? number Most of the fleet one scale-in removes, share; 0 to 1 (default 0.2)
---@field scale_in_quiet_minutes? integer Quiet minutes in a row before a scale-in, min; 1 to 1440 (default 10)
---@field max_instances? integer Fleet ceiling, count; 1 to 40 (default 40)
---@field boot_delay? integer Minutes from launch to serving, min; 0 to 1440 (default 3)
---@field launch_failure? number Share of launched instances that fail to start when their boot ends (a running share: 0.5 fails every second one), share; 0 to 1 (default 0)
---@field base_demand? number Demand before the daily swing, req/s; 0 to 1e+06 (default 1000)
---@field daily_swing? number Amplitude of the daily swing of demand, share; 0 to 1 (default 0.25)
---@field noise_cv? number Relative noise of a minute's request count, share; 0 to 0.5 (default 0.02)
---@field slo? number Availability objective, share; 0.5 to 0.99999 (default 0.999)
---@field slo_days? integer Period of the SLO, days; 1 to 365 (default 30)
---@field dep_share? number Share of requests that call the dependency, once each, share; 0 to 1 (default 0)
---@field dep_ms? number The dependency's mean latency (exponential), ms; 0.001 to 60000 (default 20)
---@field dep_error_rate? number Share of the dependency's calls that fail, share; 0 to 1 (default 0)
---@field dep_timeout_ms? number How long the app waits for the dependency, T, ms; 1 to 60000 (default 1000)
---@field retries? integer Times a client retries a failed request, at once, count; 0 to 5 (default 0)
---@field wasted_work? number Share of the last minute's queue failures (timeouts and overload) the fleet still serves for clients that gave up, share; 0 to 1 (default 0)
---@field dep_name? string The dependency's name on the dashboard and in the logs, 1 to 40 characters (default "payments")

---@class oncall.Controls
---@field min_instances? integer Fleet floor. Raising it launches instances at once; they still need the boot delay before they serve. Takes a whole number from 1 to 40 (default 10).
---@field autoscaling? boolean Target tracking on utilization. No new scale-out while any instance is booting. Off = the fleet is exactly the floor. Takes true or false (default true).
---@field target_utilization? number Lower = more headroom and more cost. Measured utilization cannot exceed 100 %, so a saturated fleet grows only step by step. Takes 0.1 to 0.95 (default 0.6).
---@field ttl_s? number Longer TTL = more hits, but answers are older (mean age ≈ TTL/2). Takes 0 to 3600 s (default 60).
---@field shed? number Share of the 30 % low-priority traffic (prefetch, batch, crawlers) rejected at the load balancer with "try later". Takes 0 to 1 (default 0).
---@field feature? boolean The heavy feature (recommendations): +20 ms CPU and +1 database query per request. Off = graceful degradation. Takes true or false (default true).
---@field breaker? boolean Circuit breaker in front of the dependency. Open = no call is made: its requests fail at once and no worker waits for it. Takes true or false (default false).

---@class oncall.Row
---@field time string Time of day, "HH:MM".
---@field minute integer Minutes since the scenario started, from 0 (min)
---@field demand number λ(t), before noise (req/s)
---@field requests number The minute's observed arrivals, noise included, with the clients' retries (req/s)
---@field retry_share number Share of the requests that are clients' retries, (A − 1)/A (share)
---@field wasted_share number Share of the fleet's work done for clients that gave up, Z/(admitted + Z): the last minute's queue failures still served (share)
---@field admitted number Requests left after shedding (req/s)
---@field shed_traffic number Share of all requests rejected at the load balancer (share)
---@field serving integer Instances serving (instances)
---@field booting integer Instances launched and still booting (instances)
---@field utilization number Busy workers / workers, capped at 1 (share)
---@field capacity number Requests a second the serving fleet completes with every worker busy: N/S (req/s)
---@field service_ms number Mean service time S (ms)
---@field p99_ms number Approximate 99th-percentile latency, capped at the timeout (ms)
---@field timeouts number Share of admitted requests that wait past the timeout, below capacity (share)
---@field failed number Share of admitted requests that fail on overload, at or above capacity (share)
---@field error_rate number Share of admitted requests that fail, all causes together (share)
---@field burn number This minute's burn rate (×)
---@field burn_5m number Burn rate over the last 5 minutes (×)
---@field burn_30m number Burn rate over the last 30 minutes (×)
---@field burn_1h number Burn rate over the last hour (×)
---@field burn_6h number Burn rate over the last 6 hours (×)
---@field budget_left number Share of the period's error budget left; it may go below 0 (share)
---@field paging boolean The page rule holds this minute
---@field hit_rate number Cache hit rate (share)
---@field warm number How full the cache is (share)
---@field cache_age_s number Mean age of a cached answer (s)
---@field db_load number Database load offered (queries/s)
---@field db_util number Db_load / database capacity, capped at 1 (share)
---@field db_errors number Share of admitted requests that fail because the database is past its capacity (share)
---@field query_ms number Database query time (ms)
---@field dep_ms_seen number Mean wait for the dependency, w; 0 when the breaker is open or no request calls it (ms)
---@field dep_errors number Share of admitted requests that fail at the dependency (dep_share·f), or at once while the breaker is open (dep_share) (share)
---@field new_build number Share of traffic on the newest deploy, as its rollout shows it: 0 before any deploy and after a rollback (what production shows of a build) (share)
---@field bad_traffic number Share of traffic served by a bad build, one that fails requests, costs more CPU or leaks; a quiet column, in the instructor's trace only (share)
---@field recommendations number Share of requests served with the heavy feature (share)
---@field cost_per_hour number What the fleet costs now ($/h)
---@field cost number What it has cost so far ($)
---@field min_instances integer Fleet floor in force (instances)
---@field autoscaling boolean Autoscaling in force
---@field target_utilization number Autoscaler target in force (share)
---@field ttl_s number Cache TTL in force (s)
---@field shed number Share of the low-priority traffic rejected (share)
---@field feature boolean The heavy feature is on
---@field breaker boolean The circuit breaker in front of the dependency is open
---@field warmup_left integer Minutes left of a running warm-up, this one included (0: none) (min)
---@field rollback_left integer Minutes left of a rollback's preparation, this one included (0: none) (min)

---@alias oncall.Outcome
---| "budget_used" # share of the month's error budget spent
---| "budget_left" # share of the month's error budget left at the end
---| "availability" # 1 − failed / admitted requests
---| "requests" # requests that arrived
---| "error_requests" # admitted requests that failed
---| "shed_requests" # requests rejected at the load balancer
---| "shed_share" # shed requests / requests
---| "worst_p99_ms" # highest minute p99
---| "mean_p99_ms" # mean of the minutes' p99
---| "slow_minutes" # minutes with p99 above 500 ms
---| "peak_error_rate" # highest minute error rate
---| "cost" # what the fleet cost
---| "mean_utilization" # mean utilization
---| "mean_cache_age_s" # mean age of a cached answer
---| "recommendations" # share of admitted requests served with the heavy feature
---| "max_db_util" # highest minute database utilization
---| "db_hot_minutes" # minutes with database utilization at 90 % or more
---| "first_page" # minute the page first fired (−1: never)
---| "paging_minutes" # minutes the page rule held
---| "minutes_to_mitigate" # minutes from the first page to the end of the harm it paged for: the last minute, before the page resolves, with errors above what the objective allows or a p99 above 500 ms (0: never paged)
---| "good_rollbacks" # rollbacks that reverted a deploy whose build was not bad (the instructor's)

---Declares the scenario. Call it once, first.
---@param decl oncall.Scenario
function scenario(decl) end

---Declares how runs of this scenario are graded.
---@param criteria oncall.Criterion[]
function grade(criteria) end

---Declares a figure of the run, computed once it is over, that grade{} can name.
---@param o oncall.Outcome
function outcome(o) end

---Declares an inject a game day's facilitator may fire at a team. Call it
---at the top level; its effect runs when it is fired, at the start of that
---minute, so that a replay with the same injects is the same run.
---@param i oncall.Inject
function inject(i) end

---Declares a switch of the scenario's own, which the player and policies
---turn on or off as any control (at most 16). Call it at the top level;
---its on or off runs at the start of the minute the decision takes effect,
---in the order decisions were made, so that a replay with the same
---decisions is the same run. A decision that leaves it as it is runs
---nothing.
---@param s oncall.Switch
function switch(s) end

---Runs fn at the start of a minute: a time of day "HH:MM" (its first
---occurrence from the start) or a minute of the run. During the run (in
---at(), on_minute, on_decision, an effect), at() schedules later minutes.
---@param when string|integer
---@param fn fun()
function at(when, fn) end

---The minute of the run at a time of day, counted from the start that
---scenario{} declares: call it after scenario{}, anywhere (at the top
---level, in at(), surge(t), on_minute and the others), or give at() the
---time "HH:MM" itself.
---@param hhmm string "HH:MM"
---@return integer
function clock(hhmm) end

---The minute being computed (in at()) or just computed (in on_minute); 0 while loading.
---@return integer
function now() end

---A constant or a control in force: a number, or true/false for a switch;
---"dep_name" gives the dependency's name, a string.
---While the file loads, the value the scenario declares.
---@param name string e.g. "db_capacity", "min_instances"
---@return number|boolean|string
function get(name) end

---Ships a build. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---@param d oncall.Deploy
function deploy(d) end

---Empties the cache, or the share of it given: warm × (1 − share). Quiet.
---Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---@param share? number Above 0, up to 1 (default 1: all of it).
function flush_cache(share) end

---Takes serving instances out of the fleet at once: they stop serving and
---being billed, and the autoscaler (or the floor) replaces them as any
---shortfall. Quiet: production shows what the scenario says and logs.
---Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---@param loss oncall.Lose
function lose_instances(loss) end

---Changes controls (someone else's decision) and constants. Quiet: only the instructor's trace shows it.
---Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---@param values oncall.Set
function set(values) end

---Multiplies constants' values set, from now on; a later set, scale or ramp ends it. Quiet.
---Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---@param factors oncall.Scale
function scale(factors) end

---Moves constants to targets over some minutes, one step a minute; a later set, scale or ramp ends it. Quiet.
---Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---@param targets oncall.Ramp
function ramp(targets) end

---Puts a line on the player's timeline. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
---A line holds at most 2,000 bytes in each language, and a run says at
---most 1,000 lines.
---@param text string|oncall.Text
function say(text) end

---Someone else presses warmup(), as the console's button does. Cache warm-up job: loads hot keys for 6 minutes (+12 % of the cache per minute) at the price of 600 extra database queries/s. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
function warmup() end

---Someone else presses rollback(), as the console's button does. Redeploys the builds that served before the latest deploy on a fresh fleet (5 minutes, billed twice), then switches traffic, whatever their quality. Pressing again while it prepares restarts the preparation; rolling back twice walks back two deploys; with no deploy to revert it only costs money. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
function rollback() end

---Someone else presses pause_rollout(), as the console's button does. Holds the rollout in progress at its current share of traffic. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
function pause_rollout() end

---Someone else presses resume_rollout(), as the console's button does. Continues a held rollout at its rate. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value.
function resume_rollout() end

---Writes a line in the minute's logs, after the engine's: a warning before
---an incident, or a decoy. Quiet on the timeline; the learner reads it in
---the logs. Only during the run: inside at(), on_minute, on_decision, an inject's effect or a switch's on and off; not while the file loads, in surge(t) or in an outcome's value. A run writes at most 1,000 lines with say and
---log together.
---@param line oncall.Log
function log(line) end

---The scenario stream: the same seed draws the same numbers, and drawing
---never shifts the traffic noise. math.random draws from it too.
rng = {}

---@param a number
---@param b number
---@return number # uniform on [a, b)
function rng.uniform(a, b) end

---@param mean number above 0
---@return number
function rng.exponential(mean) end

---@param mu number
---@param sigma number 0 or more
---@return number
function rng.normal(mu, sigma) end

---@param lambda number 0 to 1e9
---@return integer
function rng.poisson(lambda) end

---Define it to shape demand: the multiplier of minute t (1 for none).
---@param t integer minute of the run
---@return number multiplier, from 0 to 100
function surge(t) end

---Define it to react to each minute: what it schedules happens at the
---start of the next minute.
---@param row oncall.Row the minute just computed
function on_minute(row) end

---Define it to react to the player's and the policy's decisions: it sees
---each at the start of the minute it takes effect, and what it does happens
---at once, before the decision.
---@param action oncall.Decision
---@param row oncall.Row the minute the decision was made after
function on_decision(action, row) end
