-- Slow dependency: the auth service that a share of the requests call
-- slows down from its usual 20 ms to seconds, with no deploy of ours. What
-- varies with the seed, drawn from the scenario stream:
--   when it starts slowing      09:15 to 10:00
--   the share of requests that call it   30 % to 45 %
--   how slow it gets            3 to 6 s, reached over 5 to 10 minutes
-- The app waits up to 10 s for auth (dep_timeout_ms), so a worker is held
-- for most of auth's latency, more than 40 instances can carry.
-- While the app waits for it every worker is held, so requests that never
-- call auth fail with those that do: half again as many requests fail as
-- with the breaker open. More instances do not help (each new worker is held just the
-- same, and the fleet stops at 40); opening the circuit breaker fails the
-- auth requests at once and frees the workers for the rest, saving a third
-- of the failed requests or more. Auth's team fixes it 20 to 40
-- minutes after it started and says so (a line on the timeline and in the
-- logs); a breaker left open after that keeps failing the auth requests.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local start = 15 + math.floor(rng.uniform(0, 46))
local share = round(rng.uniform(0.30, 0.45), 0.01)
local slow_ms = round(rng.uniform(3000, 6000), 100)
local over = 5 + math.floor(rng.uniform(0, 6))
local fixed = start + 20 + math.floor(rng.uniform(0, 21))

scenario {
  id = "slow-dependency",
  title = {
    en = "Slow dependency",
    bs = "Spora zavisnost",
    id = "Dependensi lambat",
    es = "Dependencia lenta",
    ur = "سست ڈیپینڈنسی",
    fr = "Dépendance lente",
  },
  briefing = {
    en = "A quiet morning from 09:00. 30 to 45 % of the requests call auth, another team's service, which answers in 20 ms; the app waits up to 10 s for it. Some time before 10:00 it starts to slow down, to seconds, with nothing shipped on our side. Watch what the waiting does to the rest of the service, and keep the budget.",
    bs = "Mirno jutro od 09:00. 30 do 45 % zahtjeva poziva auth, servis drugog tima, koji odgovara za 20 ms; aplikacija ga čeka do 10 s. Negdje prije 10:00 počinje usporavati, do sekundi, a s naše strane ništa nije isporučeno. Pratite šta čekanje radi ostatku servisa i sačuvajte budžet.",
    id = "Pagi yang tenang sejak 09:00. 30 sampai 45 % permintaan memanggil auth, layanan tim lain, yang menjawab dalam 20 ms; aplikasi menunggunya sampai 10 s. Sebelum 10:00 layanan itu mulai melambat, sampai hitungan detik, tanpa ada yang dirilis dari sisi kita. Perhatikan apa akibat menunggu itu bagi bagian lain layanan, dan jaga budget.",
    es = "Una mañana tranquila desde las 09:00. Entre el 30 y el 45 % de las peticiones llaman a auth, el servicio de otro equipo, que responde en 20 ms; la aplicación lo espera hasta 10 s. En algún momento antes de las 10:00 empieza a ir lento, hasta segundos, sin que hayamos desplegado nada. Observa lo que la espera le hace al resto del servicio y protege el presupuesto.",
    ur = "09:00 سے ایک پرسکون صبح۔ 30 سے 45 % درخواستیں auth کو کال کرتی ہیں، جو دوسری ٹیم کی سروس ہے اور 20 ms میں جواب دیتی ہے؛ ایپ اس کا 10 s تک انتظار کرتی ہے۔ 10:00 سے کچھ پہلے یہ سست ہونے لگتی ہے، سیکنڈوں تک، جبکہ ہماری طرف سے کچھ جاری نہیں ہوا۔ دیکھیں کہ یہ انتظار باقی سروس کے ساتھ کیا کرتا ہے، اور بجٹ بچائیں۔",
    fr = "Une matinée calme à partir de 09:00. De 30 à 45 % des requêtes appellent auth, le service d’une autre équipe, qui répond en 20 ms ; l’application l’attend jusqu’à 10 s. Un peu avant 10:00, il se met à ralentir, jusqu’à plusieurs secondes, sans que nous ayons rien déployé. Observez ce que l’attente fait au reste du service et préservez le budget.",
  },
  start = "09:00",
  duration = "2h",
  budget_left = 0.5,
  constants = { dep_share = share, dep_ms = 20, dep_name = "auth", dep_timeout_ms = 10000 },
}

at(start, function()
  ramp { dep_ms = slow_ms, over = over }
end)

at(fixed, function()
  set { dep_ms = 20 }
  say {
    en = "Auth team: the slowdown is fixed, auth answers in 20 ms again.",
    bs = "Auth tim: usporenje je otklonjeno, auth ponovo odgovara za 20 ms.",
    id = "Tim auth: perlambatan sudah diperbaiki, auth kembali menjawab dalam 20 ms.",
    es = "Equipo de auth: la lentitud está resuelta, auth vuelve a responder en 20 ms.",
    ur = "Auth ٹیم: سست روی ٹھیک ہو گئی ہے، auth پھر سے 20 ms میں جواب دے رہی ہے۔",
    fr = "Équipe auth : le ralentissement est corrigé, auth répond de nouveau en 20 ms.",
  }
end)
for k = 0, 4 do
  at(fixed + k, function()
    log { level = "INFO", source = "auth", message = "auth: latency back to normal", count = 1 }
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
