-- A rules release, after Cloudflare's outage of 2 July 2019. At 13:42 UTC
-- a release of the managed WAF rules went to every location at once; one
-- new rule's regular expression backtracked on ordinary requests and took
-- every CPU that served HTTP: 502s everywhere for 27 minutes, until a
-- global terminate of the managed rules (a kill switch the WAF had for
-- this) gave the CPUs back. The rules went back on an hour later, once
-- the rule was reverted.
-- Sources: J. Graham-Cumming, "Details of the Cloudflare outage on July
-- 2, 2019", blog.cloudflare.com, 12 July 2019; Cloudflare, "Cloudflare
-- outage caused by bad software deploy (updated)", blog.cloudflare.com,
-- 2 July 2019.
-- What it simplifies: one fleet of 14 instances stands for every
-- location, and it cannot grow past 16 (no location had CPU to spare);
-- the rule's cost is a fixed extra time a request (app_ms), not one that
-- grows with the request; the kill switch acts at the start of the next
-- minute (Cloudflare took five minutes to reach it); and what the managed
-- rules keep out is not staged: their time off is counted and graded
-- (unprotected_minutes), not attacked. The rules ship beside the
-- application, not in its build, so rolling the application back only
-- costs money. What varies with the seed, drawn from the scenario stream:
--   when the release ships            13:35 to 14:30
--   the new rule's extra time         350 to 650 ms a request
--   when the rule is reverted         40 to 65 minutes after the release
-- Left alone, half to three quarters of the requests fail from the
-- release to the revert, and the page fires within three minutes. Turned off when the fleet
-- saturates, the rules cost a few minutes of errors and nothing else;
-- left off after the revert, the sites stay unprotected for nothing; and
-- turned back on before it, the rule takes the CPUs again.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local release = 5 + math.floor(rng.uniform(0, 56))
local extra_ms = round(rng.uniform(350, 650), 5)
local revert = release + 40 + math.floor(rng.uniform(0, 26))

local checked_ms = 50   -- the application's time, the managed rules checking each request
local unchecked_ms = 44 -- without them
local bad = false       -- the release's new rule is in the rule set
local on = true         -- the managed rules check the requests
local off_since, unprotected = 0, 0

local function app_ms()
  if not on then return unchecked_ms end
  if bad then return checked_ms + extra_ms end
  return checked_ms
end

scenario {
  id = "waf-rules",
  title = {
    en = "A rules release",
    bs = "Izdanje pravila",
    id = "Rilis aturan",
    es = "Una versión de reglas",
    ur = "قواعد کی نئی ریلیز",
    fr = "Une livraison de règles",
  },
  briefing = {
    en = "An afternoon shift at the edge from 13:30. Every request is checked against the managed WAF rules before it is served; the rules team ships releases of the rule set several times a day, to every location at once. The 14 instances are every machine there is: the fleet cannot grow past 16. Half of the month's error budget is left.",
    bs = "Popodnevna smjena na rubu mreže od 13:30. Svaki zahtjev se provjerava upravljanim WAF pravilima prije nego što se posluži; tim za pravila nekoliko puta dnevno izdaje nova izdanja skupa pravila, na sve lokacije odjednom. 14 instanci su sve mašine koje postoje: flota ne može preći 16. Ostala je polovina mjesečnog budžeta grešaka.",
    id = "Giliran jaga siang di edge sejak 13:30. Setiap permintaan diperiksa dengan aturan WAF terkelola sebelum dilayani; tim aturan merilis set aturan beberapa kali sehari, ke semua lokasi sekaligus. 14 instans itu adalah semua mesin yang ada: armada tidak bisa tumbuh melewati 16. Separuh error budget bulan ini tersisa.",
    es = "Un turno de tarde en el borde desde las 13:30. Cada petición se comprueba con las reglas WAF gestionadas antes de servirse; el equipo de reglas publica versiones del conjunto de reglas varias veces al día, en todas las ubicaciones a la vez. Las 14 instancias son todas las máquinas que hay: la flota no puede pasar de 16. Queda la mitad del presupuesto de errores del mes.",
    ur = "13:30 سے ایج پر دوپہر کی شفٹ۔ ہر درخواست پیش کیے جانے سے پہلے منظم WAF قواعد پر جانچی جاتی ہے؛ قواعد کی ٹیم دن میں کئی بار قواعد کی نئی ریلیز ایک ساتھ ہر مقام پر بھیجتی ہے۔ 14 انسٹینس ہی تمام مشینیں ہیں: فلیٹ 16 سے آگے نہیں بڑھ سکتی۔ مہینے کے ایرر بجٹ کا آدھا باقی ہے۔",
    fr = "Une garde d’après-midi en bordure du réseau à partir de 13:30. Chaque requête est vérifiée par les règles WAF gérées avant d’être servie ; l’équipe des règles livre des versions du jeu de règles plusieurs fois par jour, partout à la fois. Les 14 instances sont toutes les machines disponibles : la flotte ne peut pas dépasser 16. Il reste la moitié du budget d’erreurs du mois.",
  },
  start = "13:30",
  duration = "2h30m",
  budget_left = 0.5,
  constants = { app_ms = checked_ms, max_instances = 16 },
  controls = { min_instances = 14 },
}

switch {
  id = "waf-rules",
  label = {
    en = "Managed WAF rules",
    bs = "Upravljana WAF pravila",
    id = "Aturan WAF terkelola",
    es = "Reglas WAF gestionadas",
    ur = "منظم WAF قواعد",
    fr = "Règles WAF gérées",
  },
  help = {
    en = "The managed rule set every request is checked against before it is served. Off: no request is checked.",
    bs = "Upravljani skup pravila kojim se provjerava svaki zahtjev prije nego što se posluži. Isključeno: nijedan zahtjev se ne provjerava.",
    id = "Set aturan terkelola yang memeriksa setiap permintaan sebelum dilayani. Mati: tidak ada permintaan yang diperiksa.",
    es = "El conjunto de reglas gestionadas con el que se comprueba cada petición antes de servirla. Apagado: no se comprueba ninguna petición.",
    ur = "منظم قواعد جن پر ہر درخواست پیش کیے جانے سے پہلے جانچی جاتی ہے۔ بند: کوئی درخواست نہیں جانچی جاتی۔",
    fr = "Le jeu de règles gérées par lequel chaque requête est vérifiée avant d’être servie. Coupé : aucune requête n’est vérifiée.",
  },
  initially = true,
  on = function(ctx)
    on = true
    unprotected = unprotected + ctx.minute - off_since
    set { app_ms = app_ms() }
  end,
  off = function(ctx)
    on, off_since = false, ctx.minute
    set { app_ms = app_ms() }
  end,
}

at(release, function()
  bad = true
  set { app_ms = app_ms() }
  log { level = "INFO", source = "waf", message = "managed rules: release published to every location", count = 1 }
end)

-- While the new rule is checked, the WAF says each minute that its
-- expressions run past their CPU budget.
for m = release, 149 do
  at(m, function()
    if bad and on then
      log { level = "WARN", source = "waf", message = "managed rules: regex evaluation over its CPU budget", count = 60 }
    end
  end)
end

at(revert, function()
  bad = false
  set { app_ms = app_ms() }
  log { level = "INFO", source = "waf", message = "managed rules: the release's new rule is reverted", count = 1 }
  say {
    en = "Rules team: the last release's new rule is reverted; the managed rule set is safe again.",
    bs = "Tim za pravila: novo pravilo iz posljednjeg izdanja je vraćeno; upravljani skup pravila je ponovo siguran.",
    id = "Tim aturan: aturan baru dari rilis terakhir sudah dibatalkan; set aturan terkelola kembali aman.",
    es = "Equipo de reglas: la regla nueva de la última versión está revertida; el conjunto de reglas gestionadas vuelve a ser seguro.",
    ur = "قواعد کی ٹیم: پچھلی ریلیز کا نیا قاعدہ واپس لے لیا گیا ہے؛ منظم قواعد پھر سے محفوظ ہیں۔",
    fr = "Équipe des règles : la nouvelle règle de la dernière version est annulée ; le jeu de règles gérées est de nouveau sûr.",
  }
end)

-- Minutes the sites ran with no request checked.
outcome {
  name = "unprotected_minutes",
  unit = "min",
  value = function(rows)
    if on then return unprotected end
    return unprotected + #rows - off_since
  end,
}

grade {
  { metric = "budget_used",         at_most = "reference + 0.02", weight = 6 },
  { metric = "unprotected_minutes", at_most = "reference + 15",   weight = 2, scoring = "pass" },
  { metric = "cost",                at_most = "reference * 1.25", weight = 1 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
