-- Database degradation: the database loses part of its capacity for a
-- while, as when a storage volume degrades or a replica leaves the pool, and
-- the application tier scales out in vain. Modelled on a kind of incident
-- that public postmortems tell often: the database is the bottleneck, the
-- autoscaler adds app instances that only wait on it, and what brings the
-- errors down is taking load off the database (the heavy feature off, a
-- longer TTL), not more instances. As scenarios/db-degradation.claims
-- checks it on 20 seeds: a quarter or more of the failures are the
-- database's; the heavy feature off while it is hot saves 80 % of them;
-- more instances save only the app's share; shedding 30 % of the traffic
-- saves less than a quarter, for it lowers the hit rate with the traffic.
--
-- The orders service's database is sized at 1,200 queries/s, about two
-- thirds used at the morning's demand. The scenario stream draws:
--   when the capacity drops     09:50 to 10:50
--   how much capacity it keeps  50 % to 60 % (600 to 720 queries/s)
--   how long it lasts           35 to 55 minutes
-- Past its capacity the database fails 2 to 5 % of the requests (db_errors)
-- however many app instances wait on it; with the heavy feature off it
-- needs a third fewer queries and serves them all. The drop is quiet: the
-- learner sees the database fill and the errors, and, when it is over, the
-- storage team's message.
local drop_after = math.floor(rng.uniform(0, 61)) -- minutes after 09:50
local keep = (50 + math.floor(rng.uniform(0, 11))) / 100
local lasts = 35 + math.floor(rng.uniform(0, 21))

scenario {
  id = "db-degradation",
  title = {
    en = "Database degradation",
    bs = "Degradacija baze podataka",
    id = "Degradasi database",
    es = "Degradación de la base de datos",
    ur = "ڈیٹا بیس کی گنجائش میں کمی",
    fr = "Dégradation de la base de données",
  },
  briefing = {
    en = "A quiet morning on the orders service, whose database is sized at 1,200 queries/s and runs at about two thirds of it. Its storage has been unreliable all week, and the storage team expects trouble this morning: sometime between 09:50 and 10:50 the database will lose 40 to 50 % of its capacity, for 35 to 55 minutes. Keep the service up without paying for capacity that does not help.",
    bs = "Mirno jutro na servisu narudžbi, čija je baza podataka dimenzionirana za 1.200 upita/s i radi na otprilike dvije trećine toga. Njena pohrana je cijele sedmice nepouzdana, a tim za pohranu očekuje probleme jutros: negdje između 09:50 i 10:50 baza će izgubiti 40 do 50 % kapaciteta, na 35 do 55 minuta. Održite servis bez plaćanja kapaciteta koji ne pomaže.",
    id = "Pagi yang tenang di layanan pesanan, yang database-nya dirancang untuk 1.200 kueri/s dan berjalan di sekitar dua pertiganya. Penyimpanannya tidak andal sepanjang minggu, dan tim penyimpanan memperkirakan masalah pagi ini: antara pukul 09:50 dan 10:50 database akan kehilangan 40 sampai 50 % kapasitasnya, selama 35 sampai 55 menit. Jaga layanan tetap berjalan tanpa membayar kapasitas yang tidak membantu.",
    es = "Una mañana tranquila en el servicio de pedidos, cuya base de datos está dimensionada para 1.200 consultas/s y trabaja a unos dos tercios de eso. Su almacenamiento ha fallado toda la semana y el equipo de almacenamiento espera problemas esta mañana: en algún momento entre las 09:50 y las 10:50 la base de datos perderá entre el 40 y el 50 % de su capacidad, durante 35 a 55 minutos. Mantén el servicio en pie sin pagar por capacidad que no ayuda.",
    ur = "آرڈرز سروس پر ایک پُرسکون صبح، جس کا ڈیٹا بیس 1,200 کوئریز/سیکنڈ کے لیے بنایا گیا ہے اور اس کے تقریباً دو تہائی پر چلتا ہے۔ اس کا اسٹوریج پورا ہفتہ ناقابلِ اعتبار رہا ہے، اور اسٹوریج ٹیم آج صبح مسئلے کی توقع کر رہی ہے: 09:50 اور 10:50 کے درمیان کسی وقت ڈیٹا بیس اپنی گنجائش کا 40 سے 50 % کھو دے گا، 35 سے 55 منٹ کے لیے۔ ایسی گنجائش پر پیسہ خرچ کیے بغیر جو مدد نہ کرے، سروس چلتی رکھیں۔",
    fr = "Une matinée calme sur le service des commandes, dont la base de données est dimensionnée pour 1 200 requêtes/s et en utilise environ les deux tiers. Son stockage est instable depuis le début de la semaine, et l’équipe stockage s’attend à des ennuis ce matin : entre 09:50 et 10:50, la base de données perdra de 40 à 50 % de sa capacité, pendant 35 à 55 minutes. Gardez le service en marche sans payer une capacité qui n’aide pas.",
  },
  start = "09:30",
  duration = "2h30m",
  constants = { db_capacity = 1200 },
}

local drop = clock("09:50") + drop_after

at(drop, function()
  scale { db_capacity = keep }
end)

at(drop + lasts, function()
  scale { db_capacity = 1 }
  say {
    en = "Storage team: db-1's degraded volume is replaced; I/O is back to normal.",
    bs = "Tim za pohranu: degradirani volumen baze db-1 je zamijenjen; I/O je ponovo normalan.",
    id = "Tim penyimpanan: volume db-1 yang menurun sudah diganti; I/O kembali normal.",
    es = "Equipo de almacenamiento: el volumen degradado de db-1 se ha sustituido; la E/S vuelve a ser normal.",
    ur = "اسٹوریج ٹیم: db-1 کا خراب والیوم بدل دیا گیا ہے؛ I/O دوبارہ معمول پر ہے۔",
    fr = "Équipe stockage : le volume dégradé de db-1 est remplacé ; les E/S sont revenues à la normale.",
  }
end)

-- The errors while the database is short are what the scenario is about;
-- the page says whether they were caught before they lasted. The guards:
-- the heavy feature may go off while the database is short, not all
-- morning; and the bill: without it the largest fleet all morning, or a
-- target of 30 %, kept 47 % of the points (oncall ladder's "always"
-- rungs), though instances cannot make the database faster. Where no
-- policy's autoscaler buys more than 1.5 times the reference's fleet, cost
-- is a main criterion on that seed, and a starved fleet that earns it there
-- is held back by its errors.
grade {
  { metric = "error_requests",  at_most = "reference * 1.2 + 1000", weight = 6 },
  { metric = "paging_minutes",  at_most = "reference + 10",         weight = 2 },
  { metric = "recommendations", at_least = "reference - 0.05",      weight = 2 },
  { metric = "cost",             at_most  = "reference * 1.5",  weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
