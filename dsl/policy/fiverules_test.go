package policy

// fiveRules is the five-rule policy of the benchmarks (bench_test.go,
// whose goFiveRules does the same in Go) and a seed of the fuzz test.
const fiveRules = `
rule "scale up on latency"
  when p99_ms > 800 && booting == 0 && min_instances < 30
  do   set_min_instances(min_instances + 2)
  cooldown 5m

rule "shed when saturated"
  when utilization > 0.9 && shed < 1
  do   set_shed(1)

rule "stop shedding"
  when utilization < 0.6 && shed > 0
  do   set_shed(0)

rule "degrade when the database is hot"
  when mean_over("db_util", 5) > 0.85 && feature
  do   set_feature(false)

rule "roll back when paged"
  when paging && new_build > 0 && rollback_left == 0
  do   rollback()
`

// FiveRules is fiveRules for the benchmarks, which are in package
// policy_test: they load scenarios, and dsl/scenario imports grade, which
// imports this package.
const FiveRules = fiveRules
