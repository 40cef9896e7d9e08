-- Free play: the defaults of the model, no events, for a whole day.
-- Try the controls and watch what each one does.
scenario {
  id = "free-play",
  title = {
    en = "Free play",
    bs = "Slobodna igra",
    id = "Bermain bebas",
    es = "Juego libre",
    ur = "آزاد کھیل",
    fr = "Jeu libre",
  },
  briefing = {
    en = "You are on call for a web service: a load balancer in front of a fleet of instances, a cache in front of a database, and an availability objective of 99.9 %. Each minute the model computes, from textbook formulas, the queueing delay, timeouts, cache hits and database load — and what your decisions cost.",
    bs = "Dežurni ste za veb-servis: balanser opterećenja ispred flote instanci, keš ispred baze podataka i cilj dostupnosti od 99,9 %. Svake minute model iz udžbeničkih formula računa kašnjenje u redu, tajmaute, pogotke keša i opterećenje baze — i koliko koštaju vaše odluke.",
    id = "Anda siaga (on call) untuk layanan web: load balancer di depan armada instance, cache di depan database, dan target ketersediaan 99,9 %. Setiap menit model menghitung delay antrean, timeout, cache hit, dan beban database dari rumus buku teks — dan berapa biaya keputusan Anda.",
    es = "Estás de guardia de un servicio web: un balanceador de carga delante de una flota de instancias, una caché delante de una base de datos y un objetivo de disponibilidad del 99,9 %. Cada minuto el modelo calcula el retraso de cola, los tiempos límite, los aciertos de caché y la carga de la base de datos con fórmulas de manual, y lo que cuestan tus decisiones.",
    ur = "آپ ایک ویب سروس کے لیے آن کال ہیں: انسٹینسز کے فلیٹ کے سامنے لوڈ بیلنسر، ڈیٹا بیس کے سامنے کیش، اور 99.9 % دستیابی کا ہدف۔ ہر منٹ ماڈل قطار کی تاخیر، ٹائم آؤٹ، کیش ہٹس اور ڈیٹا بیس لوڈ نصابی فارمولوں سے نکالتا ہے — اور آپ کے فیصلوں کی قیمت بھی۔",
    fr = "Vous êtes de garde pour un service Web : un équilibreur de charge devant un parc d’instances, un cache devant une base de données et un objectif de disponibilité de 99,9 %. Chaque minute, le modèle calcule le délai de file d’attente, les expirations, les succès de cache et la charge de la base de données à partir de formules de manuel — ainsi que ce que coûtent vos décisions.",
  },
  start = "08:00",
  duration = "24h",
}

grade {
  { metric = "availability", at_least = "reference - 0.0005", weight = 2 },
  { metric = "cost",         at_most  = "reference * 1.10",   weight = 1 },
}
