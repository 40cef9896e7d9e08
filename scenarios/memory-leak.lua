-- Leak after a deploy: a routine release leaks memory, and every request
-- takes a little longer for each minute it runs, until the build is rolled
-- back. Modelled on a kind of incident that public postmortems tell often:
-- nothing fails at first, latency creeps up for an hour after the release,
-- the autoscaler hides it behind more and more instances, and only the
-- rollback ends it.
--
-- The scenario stream draws:
--   when the release ships   13:05 to 14:35
--   its rollout              5 to 15 minutes
--   its leak                 1.5 to 3 ms of application time a minute
--   its name                 5.3.1 to 5.3.9
-- The leak adds its time to every request the build serves, for every
-- minute since the deploy; more instances keep the fleet from saturating
-- but not a request from being slow. The page fires on the burn rates or
-- on a p99 of 800 ms. What the learner sees of the build is its deploy, by
-- name: whether it leaks shows only in the latency.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local ships_after = math.floor(rng.uniform(0, 91)) -- minutes after 13:05
local leak = round(rng.uniform(1.5, 3.0), 0.1)
local rollout = 5 + math.floor(rng.uniform(0, 11))
local patch = 1 + math.floor(rng.uniform(0, 9))

scenario {
  id = "memory-leak",
  title = {
    en = "Leak after a deploy",
    bs = "Curenje nakon deploya",
    id = "Kebocoran setelah deploy",
    es = "Fuga tras un despliegue",
    ur = "ڈیپلائے کے بعد لیک",
    fr = "Fuite après un déploiement",
  },
  briefing = {
    en = "A routine release ships this afternoon, sometime between 13:05 and 14:35, and rolls out over 5 to 15 minutes. The team suspects it of a memory leak that would add 1.5 to 3 ms to every request for each minute it runs. Until 17:00, keep latency and the bill low; the page fires on the burn rate or on a p99 of 800 ms.",
    bs = "Rutinsko izdanje izlazi danas poslijepodne, negdje između 13:05 i 14:35, i uvodi se tokom 5 do 15 minuta. Tim sumnja da ima curenje memorije koje bi svakom zahtjevu dodavalo 1,5 do 3 ms za svaku minutu rada. Do 17:00 držite latenciju i trošak niskima; upozorenje se oglašava na brzinu sagorijevanja ili na p99 od 800 ms.",
    id = "Rilis rutin keluar sore ini, antara pukul 13:05 dan 14:35, dan diluncurkan selama 5 sampai 15 menit. Tim menduga ada kebocoran memori yang akan menambah 1,5 sampai 3 ms pada setiap permintaan untuk setiap menit ia berjalan. Hingga pukul 17:00, jaga latensi dan biaya tetap rendah; halaman peringatan berbunyi karena burn rate atau p99 800 ms.",
    es = "Una versión rutinaria sale esta tarde, en algún momento entre las 13:05 y las 14:35, y se despliega en 5 a 15 minutos. El equipo sospecha que tiene una fuga de memoria que añadiría de 1,5 a 3 ms a cada petición por cada minuto que funcione. Hasta las 17:00, mantén bajos la latencia y la factura; la alerta salta por la tasa de consumo o por un p99 de 800 ms.",
    ur = "آج سہ پہر ایک معمول کی ریلیز 13:05 اور 14:35 کے درمیان کسی وقت جاری ہوتی ہے، اور 5 سے 15 منٹ میں رول آؤٹ ہوتی ہے۔ ٹیم کو شبہ ہے کہ اس میں میموری لیک ہے جو چلنے کے ہر منٹ کے ساتھ ہر درخواست میں 1.5 سے 3 ms کا اضافہ کرے گا۔ 17:00 تک تاخیر اور بل کم رکھیں؛ پیج برن ریٹ پر یا 800 ms کے p99 پر بجتا ہے۔",
    fr = "Une version de routine sort cet après-midi, entre 13:05 et 14:35, et se déploie en 5 à 15 minutes. L’équipe la soupçonne d’une fuite de mémoire qui ajouterait de 1,5 à 3 ms à chaque requête pour chaque minute où elle tourne. Jusqu’à 17:00, gardez la latence et la facture basses ; l’alerte se déclenche sur le taux de consommation ou sur un p99 de 800 ms.",
  },
  start = "13:00",
  duration = "4h",
  page = "(burn_1h >= 14.4 && burn_5m >= 14.4) || (burn_6h >= 6 && burn_30m >= 6) || p99_ms >= 800",
}

at(clock("13:05") + ships_after, function()
  deploy { build = "5.3." .. patch, leak = { app_ms_per_min = leak }, rollout = rollout }
end)

-- The slow minutes are what the scenario is about: a rollback soon after
-- the deploy keeps them under a few; one when the latency page fires
-- passes, some 40 minutes later. More instances only cost money, but there
-- is no guard on cost: with no policy the autoscaler chases the leak at a
-- higher price than any answer, so a starved fleet would score on it what
-- doing nothing does not.
grade {
  { metric = "slow_minutes",   at_most = "reference + 40",  weight = 5 },
  { metric = "mean_p99_ms",    at_most = "reference * 1.2", weight = 3 },
  { metric = "paging_minutes", at_most = "reference + 10",  weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
