-- Retry storm: the fleet runs at its ceiling of 12 instances, about 98 % busy
-- at the midday peak, and clients retry a failed request up to 4 times at
-- once. Search, another team's service that 30 % of the requests call,
-- fails most of its calls for a few minutes. What varies with the seed,
-- drawn from the scenario stream:
--   when search fails            11:55 to 12:25
--   the share of its calls that fail   60 % to 90 %
--   how long it fails            2 to 5 minutes
-- The failures are retried, the retries overload the fleet, and the
-- overload's failures are retried in turn: with no policy the overload
-- lingers for tens of minutes after search is back (more than 5 % of the
-- requests fail for 12 to 31 minutes on seeds 9261-9280, 3 to 5 when the
-- retries are shed), decaying slowly because the fleet without retries
-- is only a little below its capacity; it does not sustain itself for
-- ever (MODEL.md, "Client retries"), and the page resolves before the
-- shift ends. More instances cannot come (the fleet is at max_instances).
-- Opening the breaker fails search's requests at once, and clients retry
-- those too: the overload then holds as long as the breaker is open.
-- Shedding the low-priority 30 % breaks the loop within minutes; once the
-- retries are gone the shedding can stop and the service holds.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local start = 25 + math.floor(rng.uniform(0, 31))
local rate = round(rng.uniform(0.60, 0.90), 0.01)
local lasts = 2 + math.floor(rng.uniform(0, 4))

scenario {
  id = "retry-storm",
  title = {
    en = "Retry storm",
    bs = "Oluja ponovnih pokušaja",
    id = "Badai percobaan ulang",
    es = "Tormenta de reintentos",
    ur = "دوبارہ کوششوں کا طوفان",
    fr = "Tempête de nouvelles tentatives",
  },
  briefing = {
    en = "A midday shift from 11:30. The fleet is at its ceiling, 12 instances, and runs close to full at the peak; clients retry a failed request up to 4 times at once. 30 % of the requests call search, another team's service. Some time after 11:55 search fails most of its calls for a few minutes. Watch what the retries do after search is back, and keep the budget.",
    bs = "Podnevna smjena od 11:30. Flota je na svom maksimumu, 12 instanci, i u vrhuncu radi skoro punim kapacitetom; klijenti neuspjeli zahtjev odmah ponavljaju do 4 puta. 30 % zahtjeva poziva search, servis drugog tima. Negdje nakon 11:55 search nekoliko minuta ne uspijeva odgovoriti na većinu poziva. Pratite šta ponovni pokušaji rade nakon što se search vrati i sačuvajte budžet.",
    id = "Shift siang sejak 11:30. Armada sudah di batas atasnya, 12 instance, dan berjalan hampir penuh saat puncak; klien langsung mengulang permintaan yang gagal sampai 4 kali. 30 % permintaan memanggil search, layanan tim lain. Setelah 11:55 search menggagalkan sebagian besar panggilannya selama beberapa menit. Perhatikan apa yang dilakukan percobaan ulang setelah search pulih, dan jaga budget.",
    es = "Un turno de mediodía desde las 11:30. La flota está en su techo, 12 instancias, y va casi llena en el pico; los clientes reintentan una petición fallida hasta 4 veces enseguida. El 30 % de las peticiones llaman a search, el servicio de otro equipo. En algún momento después de las 11:55 search falla la mayoría de sus llamadas durante unos minutos. Observa lo que hacen los reintentos cuando search ya ha vuelto y protege el presupuesto.",
    ur = "11:30 سے دوپہر کی شفٹ۔ فلیٹ اپنی حد پر ہے، 12 انسٹینس، اور عروج کے وقت تقریباً پوری چل رہی ہے؛ کلائنٹ ناکام درخواست کو فوراً 4 بار تک دہراتے ہیں۔ 30 % درخواستیں search کو کال کرتی ہیں، جو دوسری ٹیم کی سروس ہے۔ 11:55 کے کچھ بعد search چند منٹ تک اپنی زیادہ تر کالیں ناکام کرتی ہے۔ دیکھیں کہ search کے واپس آنے کے بعد دوبارہ کوششیں کیا کرتی ہیں، اور بجٹ بچائیں۔",
    fr = "Une garde de midi à partir de 11:30. La flotte est à son plafond, 12 instances, et tourne presque à plein au pic ; les clients relancent une requête échouée jusqu’à 4 fois, aussitôt. 30 % des requêtes appellent search, le service d’une autre équipe. Un peu après 11:55, search fait échouer la plupart de ses appels pendant quelques minutes. Observez ce que font les nouvelles tentatives une fois search revenu, et préservez le budget.",
  },
  start = "11:30",
  duration = "2h",
  budget_left = 0.5,
  constants = { retries = 4, max_instances = 12, base_demand = 1920, dep_share = 0.3, dep_name = "search" },
  controls = { min_instances = 12 },
}

at(start, function()
  set { dep_error_rate = rate }
end)

at(start + lasts, function()
  set { dep_error_rate = 0 }
  say {
    en = "Search team: the errors are fixed, search answers every call again.",
    bs = "Search tim: greške su otklonjene, search ponovo odgovara na svaki poziv.",
    id = "Tim search: gangguannya sudah diperbaiki, search kembali menjawab setiap panggilan.",
    es = "Equipo de search: los errores están resueltos, search vuelve a responder todas las llamadas.",
    ur = "Search ٹیم: خرابیاں ٹھیک ہو گئی ہیں، search پھر سے ہر کال کا جواب دے رہی ہے۔",
    fr = "Équipe search : les erreurs sont corrigées, search répond de nouveau à chaque appel.",
  }
end)
for k = 0, 4 do
  at(start + lasts + k, function()
    log { level = "INFO", source = "search", message = "search: errors back to normal", count = 1 }
  end)
end

grade {
  { metric = "budget_used",         at_most = "reference + 0.01",  weight = 6 },
  { metric = "minutes_to_mitigate", at_most = "reference + 10",    weight = 2 },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
