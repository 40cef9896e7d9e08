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
    en = "A whole day from 08:00 with the model's defaults and nothing scheduled: demand rises to its noon peak and falls again. Try each control and watch what it does to latency, errors, the budget and the bill.",
    bs = "Cijeli dan od 08:00 sa zadanim vrijednostima modela i bez zakazanih događaja: saobraćaj raste do podnevnog vrhunca i zatim opada. Isprobajte svaku kontrolu i pratite šta čini latenciji, greškama, budžetu i trošku.",
    id = "Satu hari penuh sejak pukul 08:00 dengan nilai bawaan model dan tanpa kejadian terjadwal: permintaan naik hingga puncak siang lalu turun lagi. Coba setiap kontrol dan lihat pengaruhnya pada latensi, error, budget, dan biaya.",
    es = "Un día entero desde las 08:00 con los valores por defecto del modelo y nada programado: la demanda sube hasta el pico del mediodía y vuelve a bajar. Prueba cada control y observa qué hace con la latencia, los errores, el presupuesto y la factura.",
    ur = "صبح 08:00 سے پورا دن، ماڈل کی طے شدہ قدروں کے ساتھ اور بغیر کسی طے شدہ واقعے کے: طلب دوپہر کے عروج تک بڑھتی ہے اور پھر کم ہوتی ہے۔ ہر کنٹرول آزمائیں اور دیکھیں کہ وہ لیٹنسی، غلطیوں، بجٹ اور بل پر کیا اثر ڈالتا ہے۔",
    fr = "Une journée entière à partir de 08:00 avec les valeurs par défaut du modèle et aucun événement prévu : la demande monte jusqu’au pic de midi puis redescend. Essayez chaque commande et observez ce qu’elle fait à la latence, aux erreurs, au budget et à la facture.",
  },
  start = "08:00",
  duration = "24h",
}

grade {
  { metric = "availability", at_least = "reference - 0.0005", weight = 2 },
  { metric = "cost",         at_most  = "reference * 1.10",   weight = 1 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
