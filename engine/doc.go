// Package engine is the on-call model: a web service (load balancer, a fleet of
// instances, a cache in front of a database, a 99.9 % SLO) advanced one minute at
// a time by the formulas and in the order of docs/model.md.
//
// The engine imports only the standard library, and internal/spell, a leaf
// of the standard library alone, for the "did you mean" of its lookups.
//
// The engine knows nothing of Lua or expr. A scenario plugs in through the
// Scenario interface (what happens at minute m, the demand multiplier at minute
// m, a look at each row) and a policy through the Policy interface (what to do
// after seeing a row). Randomness comes only from two mulberry32 streams derived
// from the run's seed, and nothing reads the wall clock, so the same setup,
// scenario, seed and decisions always give the same trace.
//
// Decisions where docs/model.md is silent, taken here and kept in one place:
//
//   - Erlang B is computed by the reciprocal of the recursion of docs/model.md,
//     1/B_k = 1 + (k/a)·(1/B_{k-1}), evaluated with one fused multiply-add per
//     step. It is the same recursion solved for 1/B; it replaces a division per
//     step by a multiply-add, which brings N = 640 workers from about 4 µs to
//     under 1 µs a minute. math.FMA rounds once by definition, so the result is
//     the same on every machine. Where 1/B overflows, B is 0, as docs/model.md allows.
//   - That recursion's value is kept bit for bit, but most of its N steps are
//     not run; there is no error bound to state, as there is no error. Where
//     θD > 700 (E is 0 whatever B is) and a bound on B, the Poisson term at N
//     over P(X ≤ N) ≥ ½, shows Erlang C ≤ 0.01 (no waiting term), B reaches no
//     output and is not computed: so it is in every minute of a free-play day
//     at its defaults. Elsewhere the recursion starts about √(88a) steps below
//     min(N, a), twice, from a lower and an upper bound of its own value there;
//     each step is monotone, so the two runs enclose the full recursion's, and
//     where they end on the same float that float is its result (near
//     saturation at N = 640, about 250 steps instead of 640). Where that
//     would skip less than a quarter of the N steps, or the runs do not meet,
//     all N steps run. queue.go and erlangb.go give the proofs; property
//     tests compare B and the queue's figures with the plain recursion's bit
//     for bit.
//   - The burn windows keep exact sums of their error rates (a fixed-point
//     number from 2⁻¹⁰⁷⁴ up, exactsum.go), updated as a minute comes in and
//     another leaves: O(1) a minute, no drift however long the run, 0 exactly
//     when a window saw only zeros and positive when it holds any error. A
//     mean is that sum, rounded within 41 rounding errors (4.6·10⁻¹⁵, and
//     within 3 for one repeated rate), divided by W. The windows summed
//     afresh before were within 360 rounding errors, so means differ from
//     theirs in the last bits, never in the goldens' 3 printed decimals.
//   - The console projects when the error budget runs out "at this burn"
//     from the rows alone (web/static/projection.js): budget_left falls by
//     burn/budget_minutes a minute, so its mean fall over the last 5 minutes
//     is the 5-minute burn in budget per minute, and the budget is gone
//     ⌈budget_left/fall⌉ minutes after the last row. A fall of 0 (no burn)
//     never exhausts it; a projection past the shift's end says the budget
//     holds this shift. The 5-minute window is the page rule's shortest: the
//     burn that moves first when errors start or stop. No trace column holds
//     it: it is a view of the rows.
//   - The autoscaler's scale-in removes serving instances, as docs/model.md says; in
//     the rare case where fewer instances serve than are to be removed (a long
//     boot and a lowered floor), the rest are taken from the booting ones,
//     newest first.
//   - The autoscaler's launches and removals decided after minute m (both
//     modes, the autoscaling-off correction included) take effect at the
//     start of minute m+1 in step 1, after that minute's scenario events and
//     before the decisions of the player and the rules, as docs/model.md
//     orders them: a launch boots with the boot delay in force then, and is
//     reported among minute m+1's events, after the scenario's. Every
//     decision is reported in the row of the minute where it takes effect.
//   - A minute with an instance booting, or with utilization 1, is never a
//     quiet minute for the scale-in (docs/model.md, step 13).
//   - The noise stream draws its four uniforms only when noise is on, and
//     draws a minute's at the minute before (the first minute's when the
//     run is made), so that they are computed alongside that minute;
//     nothing else reads the stream, so neither changes a trace.
//   - Database overload (db_errors) is computed from the offered load,
//     the warm-up's queries included, since they take the database's
//     capacity as any other query does; it fails requests independently of
//     the queue and of a bad build, so the three shares multiply in
//     error_rate. Requests that fail there still count in the offered load
//     (one pass, as for the queue's failures).
//   - A control changed by a scenario event is validated like a player's
//     decision; a bad value stops the run with an error naming the event.
//   - A scenario's surge is a number from 0 to MaxSurge (100); another
//     stops the run. docs/model.md bounds no multiplier, but one near the
//     largest float makes demand +Inf and every metric after it NaN.
//   - A floor above the ceiling (min_instances > max_instances) is refused
//     by Sim.Decide against the ceiling in force when it is decided, so that
//     the decider hears it at once; if an event of the minute the floor
//     takes effect lowers the ceiling under it, that minute stops the run
//     with an error naming who decided. The engine checks a policy's
//     floor where it takes effect only; a policy that reads the constants
//     in force (Attached, as dsl/policy's does) checks it when it decides,
//     against the ceiling then, and names the rule's place in its file.
//
// Switches of a scenario's own (switch.go), which docs/model.md does not
// have: a kill switch for a rule set, a deploy freeze, whatever the
// scenario's story ends with that is none of the model's controls.
//
//   - Turning one on or off is a decision (an Action of ScenarioSwitch),
//     queued and taking effect at step 1 of the next minute as any other,
//     reported as an action of the row by its author. What it does is the
//     scenario's: the engine tells it (Switcher) each decision that turns
//     one over, in the order the decisions were made, before it asks for
//     the minute's events, so that what the switch does is scenario
//     events of that minute and comes before the decisions on the model's
//     controls, as every scenario event does. A decision that leaves a
//     switch as it stands is not told, and its event carries a note
//     ("already on: nothing to do").
//   - The engine keeps the states; every row carries them (Row.Switches),
//     the trace a column switch.<id> for each, and a run whose scenario
//     declares none writes none: every trace of the scenarios without
//     switches is what it was, byte for byte. A decision on a switch the
//     setup does not declare is refused (UnknownSwitchError) when it is
//     decided by hand, and stops the run at the rule that decided it when
//     a policy does.
//   - A switch's own state is no input of the model: it changes nothing by
//     itself, only through the events the scenario gives for it.
//
// Builds (build.go), where docs/model.md's "bad build" becomes a build with
// properties:
//
//   - A build is bad only through its properties: it fails requests
//     (error_rate > 0), costs more CPU (cpu > 1) or leaks. Nothing else,
//     not its name, makes it so; "bad" is a name like any other, which
//     deploy{build = "bad"} gives the model's bad build: bad_error_rate and
//     bad_cpu as they are in force when it ships (later changes of those
//     constants do not reach a build already shipped).
//   - Each property mixes by the share of traffic each build serves, added
//     build by build, so that a build which changes nothing adds exact
//     zeros: the model's bad build on a share b gives docs/model.md's
//     figures to the last bit, and the golden traces of the seed scenarios
//     did not move.
//   - A deploy over one still rolling out keeps the share the earlier one
//     had reached, among the builds the new one replaces; a build whose
//     share falls under 1e-9 is dropped from the mix.
//   - A leak counts its minutes from the deploy minute, for the whole build:
//     instances the autoscaler launches later run the mix and leak as the
//     others do, so scaling out does not reset a leak; only a rollback (or a
//     deploy that replaces the build) stops it.
//   - Each deploy records the mix it replaced; a rollback restores the
//     latest deploy's record whatever any build's quality, and pops it, so
//     that a second rollback walks back the deploy before. Its target is
//     fixed at its first press: a press while it prepares restarts the
//     clock only, even one taking effect in step 1 of the minute it would
//     switch (step 2). With no deploy to revert it restores the mix in
//     force when pressed. Its switch reverts every deploy from its target
//     on (fleetBuilds.target's from), those shipped while it prepared
//     included, also when it had no target: none is left for a later
//     rollback to walk back to. good_rollbacks counts the targeted deploy
//     when its build is not bad (the rollback_done event names it), not
//     the deploys shipped while it prepared.
//   - A held rollout (hold_at, pause_rollout) keeps its share; a pause
//     takes the share served the minute before, so one taking effect at
//     the deploy's own minute holds it at 0. resume_rollout goes on at
//     1/rollout a minute from the held share, to the hold_at when the
//     rollout was paused short of it (it holds there again), else to the
//     whole traffic. Either with nothing to act on is a no-op whose
//     action event carries a note.
//   - What production shows of a build is its name and its rollout:
//     new_build, the share of the newest deploy. bad_traffic is a quiet
//     column (MetricSpec.Quiet), in the instructor's trace only, and
//     policies cannot read it: they act on what production shows.
//
// Fleet health (health.go; docs/model.md, "Fleet health and partial cache
// loss"):
//
//   - A loss of instances takes from those serving when its event runs in
//     step 1, before the minute's boots finish and before the autoscaler's
//     and the decisions' changes: the fleet that served the minute before,
//     less what a loss earlier in the same minute took (two losses of half
//     of 10 in one minute take 5, then 3). A share rounds half up with a
//     slack of 1e-9 (nearlyWhole), so that 0.58 of 25, 14.499999999999998
//     in binary, is 15 as written; the running share of failed launches is
//     compared with the same slack, as docs/model.md asks.
//   - A removal the autoscaler decided after the minute before takes what
//     is left of the instances it was decided for when a loss came first,
//     and its event reports those it took (none: no event).
//   - The event of launches that failed, launch_failed with their number,
//     comes after the minute's step-1 events, and before a rollback's
//     switch; it is not quiet. A loss is quiet, and records the instances
//     it took in Value (and the share asked, if any).
//   - A whole flush, flush_cache() or flush_cache(1), is recorded with no
//     share, as it always was; warm × 0 is the +0 that warm = 0 was.
//
// The dependency, retries and logs (docs/model.md, "Beyond one service"):
//
//   - dep_ms is at least MinDepMS (1 µs): the specification asks for more
//     than 0. With dep_share 0 the dependency's branch is not taken at all,
//     and retries multiply requests only when e′ > 0, so that the defaults
//     leave every figure of the seeds' model to the bit.
//   - e′ is the previous row's error_rate, 0 at minute 0; the retries'
//     factor multiplies requests after the noise and is not rounded.
//   - Without work for clients that gave up, a retry storm outlives its
//     cause but does not sustain itself when the load without retries
//     fits: with ρ0 the utilization without retries, r = retries, and
//     failed = 1 − 1/ρ, the next minute's error rate is
//     e = 1 − (1 − e′)/(ρ0·(1 − e′^(r+1))), which for ρ0 < 1 has no fixed
//     point above 0. The storm decays by about
//     (1 − e′)(1/ρ0 − 1) + e′^(r+1)(1 − e′) a minute: for tens of minutes
//     when ρ0 is close to 1, within a few when it is well below.
//   - Work for clients that gave up (wasted_work, docs/model.md): Z is
//     wasted_work in force this minute times the last minute's queue
//     failures alone, (failed′ + timeouts′)·admitted′ (a request failed by
//     the database, the dependency or a build has had its answer; a shed
//     one was never admitted), 0 at minute 0. It is added to the work
//     served only when above 0, so that with wasted_work 0 every figure is
//     computed as before it, bit for bit. It is no request: requests,
//     errors, logs and retries are the admitted attempts'. The row keeps Z
//     (Row.Wasted, no column), so that P50MS reads the queue p99 was read
//     from. With retries and wasted_work near 1 a storm sustains itself
//     above ρ0 ≈ 0.68 (r = 4), 0.71 (r = 3), and only less load ends it.
//     No control drops expired work (deadline propagation): that is code
//     shipped after such a night, and a scenario stages it by setting
//     wasted_work to 0.
//   - Log counts are int64(math.Round(60·rate·share)); a cause whose count
//     rounds to 0 writes no line. A scenario's log{} lines follow the
//     engine's and do not appear among the timeline's events.
//
// Scenario changes and hooks:
//
//   - Quiet events (View): what a scenario does to the world is quiet, but
//     a deploy (announced, by its build's name) and a message. The engine
//     marks an event quiet by its kind when it records it: a constant set,
//     scaled or ramped, a control set or an action pressed by the scenario,
//     a cache flushed. The learner's trace, the console and policies see
//     neither quiet events nor quiet columns; the instructor's trace
//     (Instructor, oncall run --reveal) and the golden traces see all.
//   - A constant has a value set and a value in force (change.go): scale
//     multiplies the value set, ramp moves the value set from the value in
//     force to its target, one step a minute from the minute it starts, and
//     a later set, scale or ramp of the same constant ends a change under
//     way. A whole-number constant is rounded in force. A value in force
//     out of range stops the run at the minute it would take effect.
//   - p50 (P50MS) is step 8's queue read at its median, as p99 is read at
//     its 99th percentile: the waiting time exceeds t with probability
//     C·e^{−θt}, so its median is max(0, ln 2C)/θ, and the exponential
//     service time's is S·ln 2; their sum, at most D and at most p99, and D
//     when a ≥ N. It is computed from a row alone (admitted rate, service
//     time, N = capacity·S, and p99, which the timeout caps) and is no
//     trace column.
//   - A scenario that observes decisions (DecisionObserver) sees each at
//     the start of the minute it takes effect, before that minute's
//     events, so that what it does about a decision comes first, as every
//     scenario event does.
//   - minutes_to_mitigate (Summarize), which MODEL.md leaves to the
//     outcome, measures the harm to users once paged: from the first page
//     to the end of the last minute, before the page first resolves, whose
//     burn rate is above 1 or whose p99 is above 500 ms (Row.Harmful). The
//     page's own resolve waits for its burn windows to drain, a tail the
//     same for whoever stopped the harm, which would let a policy that did
//     nothing while the incident ended by itself meet a bound set by one
//     that stopped it.
//   - A scenario's own outcome figures (Outcomer) are computed once, when
//     the last minute has been computed; an error there stops the run after
//     that minute, its rows kept.
//   - Numbers in events print as a person writes them (PersonNum: twelve
//     significant digits, 0.72 and not 0.7200000000000001); error messages
//     keep every digit, since they must show the value that was refused.
package engine
