package main

import (
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/ladder"
	"github.com/oncall-sim/oncall/shift"
)

// LadderCmd builds the standard rungs of a scenario and grades them.
type LadderCmd struct {
	Scenario string     `arg:"" help:"A built-in scenario's name or a .lua file with a grade { ... } block."`
	Policy   string     `short:"p" help:"Its reference policy (default: the scenario's built-in one; builtin:NAME for another's)." placeholder:"FILE"`
	Seeds    string     `default:"1-20" help:"Seeds to grade the rungs on: 1-20, 1,5,9 or 1-10,20-30; the first also keys the clock and log rungs (default 1-20)." placeholder:"SET"`
	Noise    bool       `default:"true" negatable:"" help:"Traffic noise, as oncall golden record would record it."`
	Jobs     int        `short:"j" help:"Runs at once (default: one per core)." placeholder:"N"`
	Budget   LimitFlags `embed:""`
}

// Help shows examples under the flags.
func (LadderCmd) Help() string {
	return `Builds the policies a class uses to game a grade{} without understanding the
incident, from the scenario itself, and grades each against the reference
policy recorded on the seeds, as oncall grade --class would:

  none                  no policy                                   at most 10 %
  always ...            each control set to what mitigates, from    at most 30 %
                        minute 0, whatever happens (a rung each)
  late by 1, 5, 15      the reference, each action that many        late by 15: at most 60 %
                        minutes after the reference takes it
  clock of seed N       the reference's actions on the first seed,  at most 50 %
                        at the same times of day on every seed
  rollback every deploy scripts/ladder/rollback-every-deploy.rules
  log "..."             the reference's first actions when the
                        scenario's own log text first shows

A rung that scores more than a teacher accepts (the right column) is
warned about, naming the criteria whose points let it through. Tighten
those bounds, add the guard that is missing, or draw from the seed what a
policy should not know in advance, then run the ladder again.

Examples:
  oncall ladder surge
  oncall ladder my-incident.lua -p my-incident.rules --seeds 100-139
  oncall ladder my-variant.lua -p builtin:bad-deploy

Exit codes: 0 every rung within its bound · 1 a rung above it · 2 bad
usage or a file that does not load.`
}

// Run implements the subcommand.
func (c *LadderCmd) Run(env *Env) error {
	seeds, err := shift.ParseSeeds(c.Seeds)
	if err != nil {
		return usageError("--seeds: %v", err)
	}
	if c.Jobs < 0 {
		return usageError("--jobs %d: it takes the number of runs at once, 1 or more (0 or absent: one per core)", c.Jobs)
	}
	limits, err := c.Budget.limits()
	if err != nil {
		return err
	}
	p, err := resolveScenario(env, c.Scenario, limits)
	if err != nil {
		return err
	}
	if len(p.Grading()) == 0 {
		return usageError("scenario %s has no grading criteria (no grade { ... } block): there is no ladder to climb", p.ID())
	}
	pol, err := (&GoldenRecordCmd{Policy: c.Policy}).policy(env, p.ID())
	if err != nil {
		return err
	}
	ctx, stop := interruptible(env)
	defer stop()
	bar := newProgress(env, 1)
	res, err := ladder.Run(ctx, ladder.Options{Scenario: grade.Graded(p), Reference: pol, Seeds: seeds, Noise: c.Noise, Jobs: c.Jobs, Limits: limits,
		Progress: func(done, total int) {
			if bar.w != nil {
				bar.total = total
				bar.draw(done)
			}
		}})
	bar.done()
	switch {
	case err != nil && ctx.Err() != nil:
		return failure("interrupted: no ladder")
	case err != nil:
		return failure("%v", err)
	}
	if err := res.WriteText(env.Stdout); err != nil {
		return failure("writing the ladder: %v", err)
	}
	if n := res.Warnings(); n > 0 {
		return failure("%s of %s %s above what a teacher accepts", plural(n, "rung"), p.ID(), map[bool]string{true: "is", false: "are"}[n == 1])
	}
	return nil
}
