#!/usr/bin/python3
"""The two-hour bad deploy of oncall as a SimPy process model.

The shift of `oncall run bad-deploy --seed N` with traffic noise on and no
policy, written again from docs/model.md as processes of SimPy 2 (Debian's
python3-simpy): a deploy that ships build 4.2.0 at 09:10, the service that
computes each minute's row, the autoscaler that reads it, and an instance
process for each instance it launches, which boots and then serves. Within a
minute m the processes act in the model's order: events and finished boots
at m, the row at m + 1/2, the autoscaler at m + 3/4.

It is the baseline of a benchmark, not a test of oncall:

    python3 bad_deploy.py --seed 7 --check trace.csv   # the figures of oncall's trace
    python3 bad_deploy.py --seeds 1-200                # the time a shift takes

--check compares every column of an instructor's trace written by
`oncall run bad-deploy --seed 7 --reveal -f csv -o trace.csv`, minute by
minute, at the precision the trace prints.
"""

import argparse
import math
import sys
import time

from SimPy.Simulation import Process, Simulation, hold

# The constants of docs/model.md, and what bad-deploy.lua sets.
WORKERS = 16
APP_MS = 50.0
FEATURE_MS = 20.0
QUERIES = 2.0
FEATURE_QUERIES = 1.0
DB_CAPACITY = 4000.0
DB_BASE_MS = 5.0
DB_CAP_MS = 250.0
HOT_OBJECTS = 20000.0
REFILL_TAU = 30.0
TIMEOUT_S = 2.0
INSTANCE_PRICE = 0.4
SCALE_IN_SHARE = 0.2
SCALE_IN_QUIET = 10
MAX_INSTANCES = 40
BOOT_DELAY = 3
BASE_DEMAND = 1000.0
DAILY_SWING = 0.25
NOISE_CV = 0.02
SLO = 0.999
SLO_DAYS = 30.0
START = 9 * 60
MINUTES = 120
BUDGET_LEFT = 0.2
MIN_INSTANCES = 10
TARGET = 0.6
TTL = 60.0
WINDOWS = (5, 30, 60, 360)
LN100 = 2 * math.log(10)


class Mulberry32:
    """The model's random stream: mulberry32 on 32-bit unsigned words."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def float64(self):
        self.state = (self.state + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return (t ^ (t >> 14)) / 4294967296.0

    def uniform(self, a, b):
        return a + (b - a) * self.float64()

    def normal(self, mu, sigma):
        u1 = self.float64()
        u2 = self.float64()
        return mu + sigma * math.sqrt(-2 * math.log(1 - u1)) * math.cos(2 * math.pi * u2)


def go_round(x):
    """Go's math.Round: halves away from zero (Python's round() takes them to even)."""
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += math.copysign(1, x)
    return t


def erlang_b(a, n):
    """Erlang B by the recursion of docs/model.md, step 8."""
    b = 1.0
    for k in range(1, n + 1):
        b = a * b / (k + a * b)
    return b


def queue(lam, s, n, d):
    """Step 8: the M/M/N queue with patience d; s in seconds."""
    cap_ms = d * 1000
    if n <= 0:
        return 1.0, 0.0, 1.0, cap_ms
    nf = float(n)
    a = lam * s
    rho = a / nf
    theta = (nf - a) / s
    b = erlang_b(a, n)
    e = 0.0
    if theta * d <= 700 and rho * b != 0:
        td = theta * d
        middle = d * nf / s
        if td != 0:
            middle *= math.expm1(td) / td
        e = 1 / (math.exp(td) / (rho * b) + middle + 1)
    if a < nf:
        c = b / ((1 - rho) + rho * b)
        wait = math.log(c / 0.01) / theta if c > 0.01 else 0.0
        return min(rho, 1), e, 0.0, min((s * LN100 + wait) * 1000, cap_ms)
    return min(rho, 1), 0.0, e, cap_ms


class Service:
    """What the processes share: the fleet, the cache, the builds, the SLO."""

    def __init__(self, seed):
        self.noise = Mulberry32(seed)
        self.serving = MIN_INSTANCES
        self.booting = []  # the minute each booting instance serves from
        self.warm = 1.0
        self.budget = BUDGET_LEFT
        self.cost = 0.0
        self.errors = []  # the error rate of every minute so far
        self.paging = False
        self.build = None  # (error_rate, extra_cpu, deployed at, rollout)
        self.rows = []
        self.events = {}


class Deploy(Process):
    """bad-deploy.lua: build 4.2.0 at 09:10, how bad it is drawn from the scenario stream."""

    def run(self, service, seed):
        rng = Mulberry32(seed + 0x9E3779B9)

        def rnd(x, step):
            return math.floor(x / step + 0.5) * step

        error_rate = rnd(rng.uniform(0.08, 0.20), 0.001)
        cpu = rnd(rng.uniform(0.25, 0.75), 0.01)
        rollout = 2 + math.floor(rng.uniform(0, 7))
        yield hold, self, 10
        service.build = (error_rate, (1 + cpu) - 1, 10.0, float(rollout))
        service.events.setdefault(10, []).append(f"deploy 4.2.0 (error_rate {error_rate:.12g}, cpu {1 + cpu:.12g}), rollout {rollout:g} min")


class Instance(Process):
    """An instance launched at the start of a minute: it boots, then serves."""

    def run(self, service, ready):
        yield hold, self, ready - self.sim.now()
        service.booting.remove(ready)
        service.serving += 1


class Minute(Process):
    """The service computing each minute's row (steps 2 to 12 of docs/model.md)."""

    def run(self, service):
        yield hold, self, 0.5
        for m in range(MINUTES):
            service.rows.append(self.row(service, m))
            yield hold, self, 1

    def row(self, sv, m):
        clock = (START + m) % 1440
        # 2. The builds serving the minute.
        share = e_build = x_cpu = 0.0
        if sv.build is not None:
            er, extra, at, rollout = sv.build
            share = min(1, (m - at + 1) / rollout)
            e_build, x_cpu = share * er, share * extra
        # 3. Demand, and the minute's count with noise.
        h = clock / 60
        demand = BASE_DEMAND * (1 + DAILY_SWING * math.sin(2 * math.pi * (h - 6) / 24)) * 1.0
        mean = 60 * demand
        count = sv.noise.normal(mean, math.sqrt(mean)) * (1 + sv.noise.normal(0, NOISE_CV))
        requests = max(0, go_round(count)) / 60
        # 4.–7. Shedding, cache, database, service time.
        admitted = requests * (1 - 0.0)
        rt = admitted / HOT_OBJECTS * TTL
        hit = sv.warm * rt / (1 + rt) if rt > 0 else 0.0
        q = QUERIES + FEATURE_QUERIES
        db_load = admitted * q * (1 - hit)
        rho_db = db_load / DB_CAPACITY
        query_ms = min(DB_BASE_MS / (1 - rho_db), DB_CAP_MS) if rho_db < 1 else DB_CAP_MS
        db_errors = (1 - hit) * (1 - 1 / rho_db) if rho_db > 1 else 0.0
        service_ms = (APP_MS + FEATURE_MS) * (1 + x_cpu) + 0.0 + (1 - hit) * q * query_ms
        # 8.–9. Queue and errors.
        n = sv.serving * WORKERS
        util, timeouts, failed, p99 = queue(admitted, service_ms / 1000, n, TIMEOUT_S)
        error_rate = 1 - (1 - (failed + timeouts)) * (1 - db_errors) * (1 - e_build)
        # 10. SLO, burn windows and the page rule.
        allowed = 1 - SLO
        burn = error_rate / allowed
        sv.budget -= burn / (SLO_DAYS * 1440)
        sv.errors.append(error_rate)
        burns = []
        for w in WINDOWS:
            recent = sv.errors[-w:]
            burns.append(math.fsum(recent + [sv.errors[0]] * (w - len(recent))) / w / allowed)
        paging = (burns[2] >= 14.4 and burns[0] >= 14.4) or (burns[3] >= 6 and burns[1] >= 6)
        if paging != sv.paging:
            sv.events.setdefault(m, []).append("page" if paging else "resolve")
        sv.paging = paging
        # 11. Cost.
        billed = sv.serving + len(sv.booting)
        cost_per_hour = billed * INSTANCE_PRICE
        sv.cost += cost_per_hour / 60
        row = {
            "minute": m, "demand": demand, "requests": requests, "admitted": admitted, "shed_traffic": 0.0,
            "serving": sv.serving, "booting": len(sv.booting), "utilization": util,
            "capacity": n / (service_ms / 1000), "service_ms": service_ms, "p99_ms": p99,
            "timeouts": timeouts, "failed": failed, "error_rate": error_rate, "burn": burn,
            "burn_5m": burns[0], "burn_30m": burns[1], "burn_1h": burns[2], "burn_6h": burns[3],
            "budget_left": sv.budget, "paging": paging, "hit_rate": hit, "warm": sv.warm,
            "cache_age_s": TTL / 2, "db_load": db_load, "db_util": min(rho_db, 1), "db_errors": db_errors,
            "query_ms": query_ms, "new_build": share, "bad_traffic": share, "recommendations": 1.0,
            "cost_per_hour": cost_per_hour, "cost": sv.cost, "min_instances": MIN_INSTANCES,
            "autoscaling": True, "target_utilization": TARGET, "ttl_s": TTL, "shed": 0.0, "feature": True,
            "warmup_left": 0, "rollback_left": 0,
        }
        # 12. The cache for the next minute.
        f = min(1, DB_CAPACITY / db_load) if db_load > 0 else 1.0
        sv.warm += (1 - sv.warm) * (1 - math.exp(-1 / REFILL_TAU)) * f
        sv.warm = min(sv.warm, 1)
        return row


class Autoscaler(Process):
    """Step 13: target tracking on each minute's utilization, after its row."""

    def run(self, service):
        yield hold, self, 0.75
        quiet = 0
        for m in range(MINUTES):
            sv = service
            u = sv.rows[m]["utilization"]
            fleet = sv.serving + len(sv.booting)
            desired = max(MIN_INSTANCES, min(MAX_INSTANCES, math.ceil(sv.serving * u / TARGET)))
            if desired > fleet:
                quiet = 0
                if not sv.booting:
                    for _ in range(desired - fleet):
                        ready = m + 1 + BOOT_DELAY
                        sv.booting.append(ready)
                        inst = Instance(sim=self.sim)
                        self.sim.activate(inst, inst.run(sv, ready))
                    sv.events.setdefault(m + 1, []).append(f"launch {desired - fleet} by autoscaler")
            elif desired < fleet:
                quiet += 1
                if quiet >= SCALE_IN_QUIET:
                    k = min(fleet - desired, max(1, math.floor(SCALE_IN_SHARE * fleet)))
                    sv.serving -= min(k, sv.serving)
                    sv.events.setdefault(m + 1, []).append(f"remove {k} by autoscaler")
                    quiet = 0
            else:
                quiet = 0
            yield hold, self, 1


def shift(seed):
    """Runs the shift of one seed and returns its rows and events."""
    sim = Simulation()
    sim.initialize()
    service = Service(seed)
    for proc, gen in ((Deploy(sim=sim), lambda p: p.run(service, seed)),
                      (Minute(sim=sim), lambda p: p.run(service)),
                      (Autoscaler(sim=sim), lambda p: p.run(service))):
        sim.activate(proc, gen(proc))
    sim.simulate(until=MINUTES)
    return service.rows, service.events


def fixed(v, decimals):
    """A number as oncall's trace prints it: fixed decimals, trailing zeros dropped."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = f"{v:.{decimals}f}"
    if decimals > 0:
        s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def check(rows, events, path):
    """Compares the rows with an instructor's trace of oncall, column by column."""
    import csv
    with open(path, newline="") as f:
        trace = list(csv.DictReader(f))
    if len(trace) != len(rows):
        sys.exit(f"{path}: {len(trace)} minutes, the model has {len(rows)}")
    columns = [c for c in trace[0] if c not in ("time", "events", "fired")]
    compared = 0
    for want, got in zip(trace, rows):
        for c in columns:
            text = want[c]
            decimals = len(text.split(".")[1]) if "." in text else 0
            mine = fixed(got[c], max(decimals, DECIMALS.get(c, 0)))
            if mine != text:
                sys.exit(f"minute {got['minute']}, {c}: the model {mine}, oncall {text}")
            compared += 1
        said = "; ".join(events.get(got["minute"], []))
        if said != want["events"]:
            sys.exit(f"minute {got['minute']}, events: the model {said!r}, oncall {want['events']!r}")
    print(f"{path}: {len(rows)} minutes, {compared} figures and every event as oncall printed them")


# The decimals oncall prints each column with (engine/row.go).
DECIMALS = {
    "demand": 2, "requests": 2, "admitted": 2, "shed_traffic": 6, "utilization": 6, "capacity": 2,
    "service_ms": 4, "p99_ms": 2, "timeouts": 6, "failed": 6, "error_rate": 6, "burn": 3,
    "burn_5m": 3, "burn_30m": 3, "burn_1h": 3, "burn_6h": 3, "budget_left": 6, "hit_rate": 6,
    "warm": 6, "cache_age_s": 1, "db_load": 2, "db_util": 6, "db_errors": 6, "query_ms": 4,
    "new_build": 6, "bad_traffic": 6, "recommendations": 6, "cost_per_hour": 2, "cost": 4,
    "target_utilization": 4, "ttl_s": 2, "shed": 4,
}


def seeds(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--check", metavar="TRACE.csv", help="compare with oncall's instructor trace of the seed")
    ap.add_argument("--seeds", metavar="A-B", help="run these seeds and print the time a shift takes")
    args = ap.parse_args()
    if args.seeds:
        ss = seeds(args.seeds)
        began = time.perf_counter()
        for s in ss:
            shift(s)
        took = time.perf_counter() - began
        print(f"{len(ss)} shifts in {took:.3f} s: {took / len(ss) * 1e3:.3f} ms a shift")
        return
    rows, events = shift(args.seed)
    if args.check:
        check(rows, events, args.check)
        return
    last = rows[-1]
    print(f"seed {args.seed}: budget_left {fixed(last['budget_left'], 6)}, cost {fixed(last['cost'], 4)}")


if __name__ == "__main__":
    main()
