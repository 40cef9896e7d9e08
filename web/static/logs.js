// The Logs panel, the dependency's tiles and charts, and the rollout's
// buttons: the parts of the shift that read what production writes
// beside the dashboard. app.js draws them with its own helpers (h: t,
// num, esc, isoRuns), so that a word or a number is written one way on
// the whole page.
//
// The panel lists the log lines of the last LOG_MINUTES minutes, newest
// minute first; inside a minute the most severe first, then the largest
// count, so that the line that matters is the first read while paged. A
// line of the engine is written in the page's language from its cause
// (the catalogue's "log.<cause>", as i18n.LogText writes it); a line of
// the scenario, its source and a build's message are the scenario's text
// as written, each isolated (dir=auto) so that an English line keeps its
// order on an Urdu page and an Urdu line its own on an English one; an
// engine's line, in the page's language, takes the page's direction (its
// values are isolated by t()).

export const LOG_MINUTES = 10;
const MAX_LINES = 60;
const RANK = { ERROR: 0, WARN: 1, INFO: 2 };

// DEP_TILES are the dependency's tiles, with the clients' retries and the
// work for clients that gave up, shown once a request of the shift has
// called it, or a client retried, or the fleet worked for one that left.
export const DEP_TILES = ["dep_ms_seen", "dep_errors", "retry_share", "wasted_share"];

// usesDependency says whether the rows show a dependency in use: a wait
// for it (dep_ms_seen is above 0 whenever requests call it with the
// breaker closed, dep_ms being at least 0.001 ms), its errors (the
// breaker open fails its share), clients' retries, or work for clients
// that gave up. A scenario that sets none of dep_share, retries and
// wasted_work shows none of them, and the page no tile for them.
export function usesDependency(rows) {
  return rows.some(r => r.dep_ms_seen > 0 || r.dep_errors > 0 || r.retry_share > 0 || r.wasted_share > 0);
}

// depCharts are the charts of the dependency, after the others (their
// ids follow the others' and so keep them).
export function depCharts() {
  return [
    { key: "ui.chart.dep_ms", unit: "ms", lines: ["dep_ms_seen"] },
    { key: "ui.chart.dep_errors", unit: "share", lines: ["dep_errors", "retry_share", "wasted_share"], max: 1 },
  ];
}

// numberOf writes v with the fewest decimals, up to four, that show it:
// i18n's shortDecimals.
function numberOf(h, v) {
  const s = Math.abs(v).toFixed(4).replace(/0+$/, "");
  return h.num(v, s.length - 1 - s.indexOf("."));
}

// logText writes an engine's line in the page's language from its cause,
// as i18n.LogText does; a scenario's line is its message as written.
export function logText(h, l) {
  if (!l.cause) return l.message;
  let msg = l.message;
  if (l.cause === "build") msg = msg.split(" (build ")[0];
  let timeout = "";
  if (l.cause === "timeout") timeout = numberOf(h, (l.timeout_ms || 0) / 1000) + " s";
  if (l.cause === "dependency_timeout") timeout = numberOf(h, l.timeout_ms || 0) + " ms";
  return h.t("log." + l.cause, { name: l.name || "", message: msg, timeout });
}

// level is the least severe level the filter shows.
function level() { const s = document.getElementById("loglevel"); return (s && s.value) || "INFO"; }

// drawLogs lists the lines of the last minutes of the shift sh.
export function drawLogs(sh, h) {
  const box = document.getElementById("logs");
  if (!box) return;
  // An engine's line is in the page's language and runs in its direction;
  // a scenario's is isolated and finds its own.
  const least = RANK[level()], out = [], dir = document.documentElement.dir || "ltr";
  const last = sh.rows.length - 1;
  for (let m = last; m >= 0 && m > last - LOG_MINUTES && out.length < MAX_LINES; m--) {
    const r = sh.rows[m];
    const ls = (r.logs || []).filter(l => RANK[l.level] <= least);
    ls.sort((a, b) => RANK[a.level] - RANK[b.level] || b.count - a.count);
    for (const l of ls.slice(0, MAX_LINES - out.length)) {
      const lv = l.level.toLowerCase();
      out.push(`<li class="log ${lv}" data-minute="${m}"><time>${h.esc(r.time)}</time>` +
        `<span class="lvl">${h.esc(l.level)}</span><bdi class="src" dir="auto">${h.esc(l.source)}</bdi>` +
        `<bdi class="msg" dir="${l.cause ? dir : "auto"}">${h.esc(logText(h, l))}</bdi>` +
        `<b class="n"><bdi dir="ltr">×${h.esc(h.num(l.count, 0))}</bdi></b></li>`);
    }
  }
  const html = out.join("");
  if (box.dataset.html !== html) { box.innerHTML = html; box.dataset.html = html; }
  document.getElementById("logs-none").hidden = out.length > 0;
  document.getElementById("logs-none").textContent = h.t("ui.logs.none", { n: h.num(LOG_MINUTES, 0) });
  document.getElementById("logs-note").textContent = h.t("ui.logs.note", { n: h.num(LOG_MINUTES, 0) });
}

// rolloutLive says whether a rollout serves part of the traffic at the
// last row (new_build above 0 and below 1), under way or held: then its
// buttons may pause or resume it. The engine says on the timeline when
// there was nothing to pause or to resume.
export function rolloutLive(rows) {
  const r = rows[rows.length - 1];
  return !!r && r.new_build > 0 && r.new_build < 1;
}
