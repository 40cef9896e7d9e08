-- Cache flush: at the noon peak a maintenance script empties the cache.
-- With a TTL of 90 s the hit rate is about 85 % before; after the flush every
-- request goes to the database. How much headroom it has, and how many
-- instances wait on it, come from the scenario stream, so that every seed
-- differs and the same seed gives the same incident:
--   the database's capacity   3,400 to 4,600 queries/s (4,000 by default)
--   the fleet's floor         9 to 12 instances
-- After the flush the database slows down, and the fleet saturates waiting
-- on its queries: requests fail in the app, and at most a tenth of the
-- failures are the database's, even on a small one. The lesson, as
-- scenarios/cache-flush.claims checks it on 20 seeds: degrading while the
-- database is hot saves half of the failed requests, and a fleet big
-- enough to wait on the database (the largest) saves 90 % of them.
local db_capacity = 10 * math.floor(rng.uniform(340, 461)) -- 3,400 to 4,600 queries/s
local fleet = 9 + math.floor(rng.uniform(0, 4))              -- 9 to 12 instances

scenario {
  id = "cache-flush",
  title = {
    en = "Cache flush",
    bs = "Pražnjenje keša",
    id = "Cache dikosongkan",
    es = "Caché vaciada",
    ur = "کیش خالی",
    fr = "Cache vidé",
  },
  briefing = {
    en = "At the midday peak a maintenance script empties the whole cache. Every request now goes to the database, sized for the usual 85 % hit rate. Its capacity (3,400 to 4,600 queries a second) and the size of the fleet (9 to 12 instances) vary from one shift to the next. Restore the service without overloading the database.",
    bs = "Na podnevnom vrhuncu skripta za održavanje briše cijeli keš. Svaki zahtjev sada ide u bazu, dimenzioniranu za uobičajenu stopu pogodaka od 85 %. Njen kapacitet (3.400 do 4.600 upita u sekundi) i veličina flote (9 do 12 instanci) mijenjaju se od smjene do smjene. Vratite servis bez preopterećenja baze.",
    id = "Pada puncak tengah hari skrip pemeliharaan mengosongkan seluruh cache. Setiap permintaan kini menuju database, yang dirancang untuk hit rate 85 % biasa. Kapasitasnya (3.400 sampai 4.600 kueri per detik) dan ukuran armada (9 sampai 12 instans) berbeda dari satu giliran jaga ke giliran berikutnya. Pulihkan layanan tanpa membebani database berlebih.",
    es = "En el pico del mediodía, un script de mantenimiento vacía toda la caché. Ahora cada petición va a la base de datos, dimensionada para la tasa de aciertos habitual del 85 %. Su capacidad (de 3.400 a 4.600 consultas por segundo) y el tamaño de la flota (de 9 a 12 instancias) cambian de un turno a otro. Recupera el servicio sin sobrecargar la base de datos.",
    ur = "دوپہر کی چوٹی پر ایک دیکھ بھال اسکرپٹ پورا کیش خالی کر دیتا ہے۔ اب ہر درخواست ڈیٹا بیس پر جاتی ہے، جو معمول کے 85 % ہٹ ریٹ کے لیے بنایا گیا تھا۔ اس کی گنجائش (3,400 سے 4,600 کوئریز فی سیکنڈ) اور فلیٹ کا سائز (9 سے 12 انسٹینسز) ہر شفٹ میں مختلف ہوتے ہیں۔ ڈیٹا بیس پر بوجھ ڈالے بغیر سروس بحال کریں۔",
    fr = "À la pointe de midi, un script de maintenance vide tout le cache. Chaque requête va maintenant à la base de données, dimensionnée pour le taux de succès habituel de 85 %. Sa capacité (3 400 à 4 600 requêtes par seconde) et la taille du parc (9 à 12 instances) changent d’une garde à l’autre. Remettez le service en état sans surcharger la base de données.",
  },
  start = "11:00",
  duration = "2h",
  constants = { db_capacity = db_capacity },
  controls = { ttl_s = 90, min_instances = fleet },
}

at("12:00", function()
  flush_cache()
  say {
    en = "Maintenance job cache-purge finished: 20,000 keys removed.",
    bs = "Posao održavanja cache-purge je završen: uklonjeno 20.000 ključeva.",
    id = "Tugas pemeliharaan cache-purge selesai: 20.000 kunci dihapus.",
    es = "La tarea de mantenimiento cache-purge terminó: 20.000 claves eliminadas.",
    ur = "دیکھ بھال کا کام cache-purge مکمل: 20,000 کلیدیں حذف۔",
    fr = "Tâche de maintenance cache-purge terminée : 20 000 clés supprimées.",
  }
end)

grade {
  { metric = "error_requests", at_most = "reference * 1.2 + 1000", weight = 5 },
  { metric = "slow_minutes",   at_most = "reference + 3",          weight = 2 },
  { metric = "db_hot_minutes", at_most = "reference + 2",          weight = 2 },
  { metric = "cost",           at_most = "reference * 1.5",        weight = 1 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
