-- Retry storm: a metastable failure. The fleet is pinned at 12 instances
-- (the autoscaler is off since it flapped last week), about 90 % busy at
-- the midday peak; clients retry a failed request up to 4 times at once,
-- and the app has no deadline propagation: it finishes every request it
-- has taken, even one whose client has given up (wasted_work = 1). Search,
-- another team's service that 30 % of the requests call, fails most of its
-- calls for a few minutes. What varies with the seed, drawn from the
-- scenario stream:
--   when search fails            11:55 to 12:25
--   the share of its calls that fail   65 % to 90 %
--   how long it fails            3 to 6 minutes
-- The failures are retried, the retries overload the fleet, and the
-- overload's failures are retried and served all the same, for clients
-- that have gone. With 4 retries and every failed request still served,
-- the storm sustains itself wherever the load without retries is above
-- about 68 % of the fleet's capacity (docs/model.md, "Work for clients
-- that gave up"): at ~89 % it holds at ~81 % errors, with ~45 % of the
-- fleet's work done for clients that have gone, to the end of the shift,
-- an hour and more after search is back, and waiting never ends it. Only
-- less load does: shedding the low-priority 30 % brings the fleet to
-- ~62 %, under the threshold, and ends the storm within minutes (the
-- sooner it sheds, the sooner: 2 to 12 minutes); once the retries are
-- gone the shedding can stop and the service holds. More instances end
-- it only past the threshold: two more (14, ~76 %) stop short and the
-- storm holds; six more (18, ~59 %) end it, once booted, at a third more
-- cost. Opening the breaker in front of search fails its
-- requests at once, and clients retry those too: it feeds the storm.
-- The fleet and the demand were chosen so that the weakest failure drawn
-- (65 % for 3 minutes) starts the storm on every seed with demand to
-- spare: 2 % less demand still does.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local start = 25 + math.floor(rng.uniform(0, 31))
local rate = round(rng.uniform(0.65, 0.90), 0.01)
local lasts = 3 + math.floor(rng.uniform(0, 4))

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
    en = "A midday shift from 11:30. The fleet is pinned at 12 instances, about 90 % busy at the peak: autoscaling has been off since it flapped last week. Clients retry a failed request up to 4 times at once, and the app finishes every request it has taken, even one whose client has already given up. 30 % of the requests call search, another team's service. Some time after 11:55 search fails most of its calls for a few minutes. Watch what the retries do after search is back, and keep the budget.",
    bs = "Podnevna smjena od 11:30. Flota je fiksirana na 12 instanci, u vrhuncu oko 90 % zauzeta: automatsko skaliranje je isključeno otkako je prošle sedmice oscilovalo. Klijenti neuspjeli zahtjev odmah ponavljaju do 4 puta, a aplikacija dovršava svaki zahtjev koji je primila, čak i onaj čiji je klijent već odustao. 30 % zahtjeva poziva search, servis drugog tima. Negdje nakon 11:55 search nekoliko minuta ne uspijeva odgovoriti na većinu poziva. Pratite šta ponovni pokušaji rade nakon što se search vrati i sačuvajte budžet.",
    id = "Shift siang sejak 11:30. Armada dipatok di 12 instance, sekitar 90 % sibuk saat puncak: autoscaling dimatikan sejak berosilasi minggu lalu. Klien langsung mengulang permintaan yang gagal sampai 4 kali, dan aplikasi menyelesaikan setiap permintaan yang sudah diterimanya, bahkan yang kliennya sudah menyerah. 30 % permintaan memanggil search, layanan tim lain. Setelah 11:55 search menggagalkan sebagian besar panggilannya selama beberapa menit. Perhatikan apa yang dilakukan percobaan ulang setelah search pulih, dan jaga budget.",
    es = "Un turno de mediodía desde las 11:30. La flota está fijada en 12 instancias, ocupada en torno al 90 % en el pico: el autoescalado está apagado desde que osciló la semana pasada. Los clientes reintentan una petición fallida hasta 4 veces enseguida, y la aplicación termina cada petición que ha aceptado, aunque su cliente ya haya abandonado. El 30 % de las peticiones llaman a search, el servicio de otro equipo. En algún momento después de las 11:55 search falla la mayoría de sus llamadas durante unos minutos. Observa lo que hacen los reintentos cuando search ya ha vuelto y protege el presupuesto.",
    ur = "11:30 سے دوپہر کی شفٹ۔ فلیٹ 12 انسٹینس پر قائم ہے اور عروج کے وقت تقریباً 90 % مصروف رہتی ہے: آٹو اسکیلنگ پچھلے ہفتے ڈگمگانے کے بعد سے بند ہے۔ کلائنٹ ناکام درخواست کو فوراً 4 بار تک دہراتے ہیں، اور ایپ ہر لی ہوئی درخواست پوری کرتی ہے، چاہے اس کا کلائنٹ ہار مان چکا ہو۔ 30 % درخواستیں search کو کال کرتی ہیں، جو دوسری ٹیم کی سروس ہے۔ 11:55 کے کچھ بعد search چند منٹ تک اپنی زیادہ تر کالیں ناکام کرتی ہے۔ دیکھیں کہ search کے واپس آنے کے بعد دوبارہ کوششیں کیا کرتی ہیں، اور بجٹ بچائیں۔",
    fr = "Une garde de midi à partir de 11:30. La flotte est fixée à 12 instances, occupée à 90 % environ au pic : la mise à l’échelle automatique est coupée depuis qu’elle a oscillé la semaine dernière. Les clients relancent une requête échouée jusqu’à 4 fois, aussitôt, et l’application termine chaque requête qu’elle a prise, même celle dont le client a déjà abandonné. 30 % des requêtes appellent search, le service d’une autre équipe. Un peu après 11:55, search fait échouer la plupart de ses appels pendant quelques minutes. Observez ce que font les nouvelles tentatives une fois search revenu, et préservez le budget.",
  },
  start = "11:30",
  duration = "2h",
  budget_left = 0.5,
  constants = { retries = 4, wasted_work = 1, base_demand = 1720, dep_share = 0.3, dep_name = "search" },
  controls = { min_instances = 12, autoscaling = false },
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
  { metric = "budget_used",         at_most = "reference + 0.1",   weight = 6 },
  { metric = "minutes_to_mitigate", at_most = "reference + 30",    weight = 2 },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.02", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
