-- Cache flush: at the noon peak a maintenance script empties the cache.
-- With a TTL of 90 s the hit rate is about 85 % before; after the flush every
-- request goes to the database, which saturates.
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
    en = "At the midday peak a maintenance script empties the whole cache. Every request now goes to the database, sized for the usual 85 % hit rate. Restore the service without overloading the database.",
    bs = "Na podnevnom vrhuncu skripta za održavanje briše cijeli keš. Svaki zahtjev sada ide u bazu, dimenzioniranu za uobičajenu stopu pogodaka od 85 %. Vratite servis bez preopterećenja baze.",
    id = "Pada puncak tengah hari skrip pemeliharaan mengosongkan seluruh cache. Setiap permintaan kini menuju database, yang dirancang untuk hit rate 85 % biasa. Pulihkan layanan tanpa membebani database berlebih.",
    es = "En el pico del mediodía, un script de mantenimiento vacía toda la caché. Ahora cada petición va a la base de datos, dimensionada para la tasa de aciertos habitual del 85 %. Recupera el servicio sin sobrecargar la base de datos.",
    ur = "دوپہر کی چوٹی پر ایک دیکھ بھال اسکرپٹ پورا کیش خالی کر دیتا ہے۔ اب ہر درخواست ڈیٹا بیس پر جاتی ہے، جو معمول کے 85 % ہٹ ریٹ کے لیے بنایا گیا تھا۔ ڈیٹا بیس پر بوجھ ڈالے بغیر سروس بحال کریں۔",
    fr = "À la pointe de midi, un script de maintenance vide tout le cache. Chaque requête va maintenant à la base de données, dimensionnée pour le taux de succès habituel de 85 %. Remettez le service en état sans surcharger la base de données.",
  },
  start = "11:00",
  duration = "2h",
  controls = { ttl_s = 90 },
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
  { metric = "db_hot_minutes", at_most = "reference + 5",          weight = 3 },
  { metric = "cost",           at_most = "reference * 1.5",        weight = 1 },
}
