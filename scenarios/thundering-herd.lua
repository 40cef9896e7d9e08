-- Thundering herd: the cache is emptied minutes before a burst of traffic,
-- and every request of the burst goes to the database at once. Modelled on
-- a kind of incident that public postmortems tell often: a cache cluster
-- restarted by a routine change just as a push notification brings every
-- user back, so that the database takes the whole herd and slows down, and
-- the app's instances queue behind its queries.
--
-- The lesson, as scenarios/thundering-herd.claims checks it on 20 seeds:
-- most failed requests are the app's, queued behind the slow database (the
-- database's own are under 40 % of them); the largest fleet saves less than
-- half of them, for the 40-instance ceiling is what more instances cannot
-- pass; degrading alone saves two thirds, and so does warming the cache up
-- at once; degrading and warming up as soon as the database has room saves
-- 90 %.
--
-- The scenario stream draws:
--   when the push notification goes out   11:45 to 12:30
--   when the cache empties                2 to 10 minutes before it
--   how big the burst is                  ×1.6 to ×2.2 the usual demand
--   how fast it fades                     a time constant of 20 to 40 minutes
-- With the cache cold, every request needs three queries: a burst of
-- 2,000 to 2,800 requests a second asks the database (4,000 queries/s) for
-- 6,000 to 8,000. What brings it under: the heavy feature off (two queries
-- a request) and the low-priority traffic shed, a longer TTL, and the
-- warm-up once the database has room. The learner sees the infrastructure
-- team's and marketing's messages, not the flush itself.
local push_after = math.floor(rng.uniform(0, 46))      -- minutes after 11:45
local flush_before = 2 + math.floor(rng.uniform(0, 9)) -- minutes before the push
local size = (16 + math.floor(rng.uniform(0, 7))) / 10
local fade = 20 + math.floor(rng.uniform(0, 21))

scenario {
  id = "thundering-herd",
  title = {
    en = "Thundering herd",
    bs = "Krdo zahtjeva",
    id = "Serbuan permintaan",
    es = "Estampida de peticiones",
    ur = "درخواستوں کا ہجوم",
    fr = "Ruée de requêtes",
  },
  briefing = {
    en = "Marketing sends a push notification to every user around midday, sometime between 11:45 and 12:30: traffic will jump to 1.6 to 2.2 times the usual and fade over 20 to 40 minutes. The infrastructure team is rolling out a change to the cache cluster shortly before. Keep the service up without overloading the database.",
    bs = "Marketing šalje push obavijest svim korisnicima oko podneva, negdje između 11:45 i 12:30: saobraćaj će skočiti na 1,6 do 2,2 puta uobičajenog i opadati tokom 20 do 40 minuta. Infrastrukturni tim malo prije toga uvodi promjenu na klasteru keša. Održite servis bez preopterećenja baze.",
    id = "Tim pemasaran mengirim notifikasi push ke semua pengguna sekitar tengah hari, antara pukul 11:45 dan 12:30: lalu lintas akan melonjak menjadi 1,6 sampai 2,2 kali biasanya lalu mereda selama 20 sampai 40 menit. Tim infrastruktur meluncurkan perubahan pada klaster cache sesaat sebelumnya. Jaga layanan tetap berjalan tanpa membebani database berlebih.",
    es = "Marketing envía una notificación push a todos los usuarios hacia el mediodía, en algún momento entre las 11:45 y las 12:30: el tráfico saltará a entre 1,6 y 2,2 veces lo habitual y bajará a lo largo de 20 a 40 minutos. El equipo de infraestructura despliega un cambio en el clúster de caché poco antes. Mantén el servicio en pie sin sobrecargar la base de datos.",
    ur = "مارکیٹنگ دوپہر کے قریب، 11:45 اور 12:30 کے درمیان کسی وقت، تمام صارفین کو پش نوٹیفکیشن بھیجتی ہے: ٹریفک معمول سے 1.6 سے 2.2 گنا تک اچھلے گا اور 20 سے 40 منٹ میں کم ہوگا۔ انفراسٹرکچر ٹیم اس سے کچھ پہلے کیش کلسٹر میں ایک تبدیلی جاری کر رہی ہے۔ ڈیٹا بیس پر بوجھ ڈالے بغیر سروس چلتی رکھیں۔",
    fr = "Le marketing envoie une notification push à tous les utilisateurs vers midi, entre 11:45 et 12:30 : le trafic bondira à 1,6 à 2,2 fois l’habituel puis décroîtra en 20 à 40 minutes. L’équipe infrastructure déploie une modification du cluster de cache peu avant. Gardez le service en marche sans surcharger la base de données.",
  },
  start = "11:30",
  duration = "2h",
}

local push = clock("11:45") + push_after

at(push - flush_before, function()
  flush_cache()
  say {
    en = "Infrastructure: cache cluster config rolled out; cache nodes restarted.",
    bs = "Infrastruktura: konfiguracija klastera keša je uvedena; čvorovi keša su ponovo pokrenuti.",
    id = "Infrastruktur: konfigurasi klaster cache diluncurkan; node cache dimulai ulang.",
    es = "Infraestructura: configuración del clúster de caché desplegada; nodos de caché reiniciados.",
    ur = "انفراسٹرکچر: کیش کلسٹر کی کنفیگریشن جاری؛ کیش نوڈز دوبارہ شروع۔",
    fr = "Infrastructure : configuration du cluster de cache déployée ; nœuds de cache redémarrés.",
  }
end)

at(push, function()
  say {
    en = "Marketing: the midday push notification went out to every user.",
    bs = "Marketing: podnevna push obavijest poslana je svim korisnicima.",
    id = "Pemasaran: notifikasi push tengah hari sudah dikirim ke semua pengguna.",
    es = "Marketing: la notificación push del mediodía se ha enviado a todos los usuarios.",
    ur = "مارکیٹنگ: دوپہر کا پش نوٹیفکیشن تمام صارفین کو بھیج دیا گیا۔",
    fr = "Marketing : la notification push de midi est partie vers tous les utilisateurs.",
  }
end)

local exp = math.exp
function surge(t)
  if t < push then
    return 1
  end
  return 1 + (size - 1) * exp(-(t - push) / fade)
end

-- The failed requests of the herd are what the scenario is about, the
-- database's hot minutes how it was treated. The guards: shed only what
-- the herd needs, and keep the feature for most of the shift.
grade {
  { metric = "error_requests",  at_most = "reference * 1.2 + 5000", weight = 6 },
  { metric = "db_hot_minutes",  at_most = "reference + 3",          weight = 2 },
  { metric = "shed_share",      at_most = "reference + 0.02",       weight = 1 },
  { metric = "recommendations", at_least = "reference - 0.1",       weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
