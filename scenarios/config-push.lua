-- Config push: a feature flag switches a heavy new code path on for every
-- user at once, with no staged rollout and no build shipped. Modelled on a
-- kind of incident that public postmortems tell often: a configuration
-- change, not a deploy, makes every request costlier; the fleet saturates,
-- the autoscaler chases it at a high price, a rollback finds nothing to
-- roll back, and switching the flag off again is what restores service.
--
-- The recommendations of the console's feature switch are dark at the
-- start (the feature is off). The scenario stream draws:
--   when the config push switches them on   13:45 to 14:30
--   their CPU time                          80 to 150 ms a request
--   the change's number, for its message    2291 to 2990
-- With the feature on, each request also makes two more database queries.
-- The push is announced as production announces a config change; what it
-- costs shows in the latency, the errors and the fleet. A rollback pressed
-- by the player or a policy gets the deploy pipeline's answer.
local push_after = math.floor(rng.uniform(0, 46)) -- minutes after 13:45
local heavy = 10 * (8 + math.floor(rng.uniform(0, 8)))
local change = 2291 + math.floor(rng.uniform(0, 700))

scenario {
  id = "config-push",
  title = {
    en = "Config push",
    bs = "Promjena konfiguracije",
    id = "Perubahan konfigurasi",
    es = "Cambio de configuración",
    ur = "کنفیگریشن کی تبدیلی",
    fr = "Changement de configuration",
  },
  briefing = {
    en = "Recommendations v2, a heavier version of the recommendations, waits behind a feature flag. Sometime between 13:45 and 14:30 the product team will switch it on for every user with a config push: it costs 80 to 150 ms of CPU and two database queries a request. Keep latency, errors and the bill in check.",
    bs = "Preporuke v2, zahtjevnija verzija preporuka, čekaju iza zastavice funkcije. Negdje između 13:45 i 14:30 produktni tim će ih uključiti za sve korisnike promjenom konfiguracije: koštaju 80 do 150 ms CPU-a i dva upita bazi po zahtjevu. Držite latenciju, greške i trošak pod kontrolom.",
    id = "Rekomendasi v2, versi rekomendasi yang lebih berat, menunggu di balik feature flag. Antara pukul 13:45 dan 14:30 tim produk akan menyalakannya untuk semua pengguna lewat perubahan konfigurasi: biayanya 80 sampai 150 ms CPU dan dua kueri database per permintaan. Jaga latensi, error, dan biaya tetap terkendali.",
    es = "Las recomendaciones v2, una versión más pesada de las recomendaciones, esperan tras un feature flag. En algún momento entre las 13:45 y las 14:30 el equipo de producto las activará para todos los usuarios con un cambio de configuración: cuestan de 80 a 150 ms de CPU y dos consultas a la base de datos por petición. Mantén bajo control la latencia, los errores y la factura.",
    ur = "ریکمنڈیشنز v2، ریکمنڈیشنز کا ایک بھاری ورژن، فیچر فلیگ کے پیچھے تیار ہے۔ 13:45 اور 14:30 کے درمیان کسی وقت پروڈکٹ ٹیم اسے کنفیگریشن کی تبدیلی سے تمام صارفین کے لیے آن کرے گی: اس پر فی درخواست 80 سے 150 ms کا CPU اور ڈیٹا بیس کی دو کوئریز لگتی ہیں۔ تاخیر، غلطیاں اور بل قابو میں رکھیں۔",
    fr = "Les recommandations v2, une version plus lourde des recommandations, attendent derrière un feature flag. Entre 13:45 et 14:30, l’équipe produit les activera pour tous les utilisateurs par un changement de configuration : elles coûtent de 80 à 150 ms de CPU et deux requêtes de base de données par requête. Gardez la latence, les erreurs et la facture sous contrôle.",
  },
  start = "13:30",
  duration = "2h",
  controls = { feature = false },
}

at(clock("13:45") + push_after, function()
  set { feature = true, feature_ms = heavy, feature_queries = 2 }
  say {
    en = string.format("Config push %d: recommendations v2 enabled for every user.", change),
    bs = string.format("Promjena konfiguracije %d: preporuke v2 uključene za sve korisnike.", change),
    id = string.format("Perubahan konfigurasi %d: rekomendasi v2 dinyalakan untuk semua pengguna.", change),
    es = string.format("Cambio de configuración %d: recomendaciones v2 activadas para todos los usuarios.", change),
    ur = string.format("کنفیگریشن تبدیلی %d: ریکمنڈیشنز v2 تمام صارفین کے لیے آن۔", change),
    fr = string.format("Changement de configuration %d : recommandations v2 activées pour tous les utilisateurs.", change),
  }
end)

-- A rollback redeploys the build that runs: the pipeline says so at once.
function on_decision(action, row)
  if action.name == "rollback" then
    say {
      en = "Deploy pipeline: no build has shipped today; the rollback redeploys the one that runs.",
      bs = "Deploy pipeline: danas nije isporučen nijedan build; vraćanje ponovo postavlja onaj koji radi.",
      id = "Pipeline deploy: belum ada build yang dirilis hari ini; rollback men-deploy ulang build yang sedang berjalan.",
      es = "Pipeline de despliegue: hoy no ha salido ninguna versión; la reversión vuelve a desplegar la que funciona.",
      ur = "ڈیپلائے پائپ لائن: آج کوئی بلڈ جاری نہیں ہوئی؛ رول بیک اسی بلڈ کو دوبارہ ڈیپلائے کرتا ہے جو چل رہی ہے۔",
      fr = "Chaîne de déploiement : aucune version n’est sortie aujourd’hui ; le retour arrière redéploie celle qui tourne.",
    }
  end
end

-- Latency and errors after the push: switching the flag off early keeps
-- both down; paying for the fleet the heavy feature needs keeps the errors
-- down but not the latency. So latency weighs 6 and errors 2: with both at
-- 4, the largest fleet from minute 0 kept half the points (oncall
-- ladder's "always" rungs). There is no guard on cost: with no policy the
-- autoscaler already buys that fleet, so a starved one would score on it
-- what doing nothing does not.
grade {
  { metric = "error_requests", at_most = "reference * 1.2 + 1000", weight = 2 },
  { metric = "slow_minutes",   at_most = "reference + 8",          weight = 6 },
  { metric = "paging_minutes", at_most = "reference + 10",         weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
