-- Back from the holidays, after Slack's outage of 4 January 2021. On the
-- first working morning of the year, users came back with apps that
-- synced all they had missed; the network between the cloud's zones lost
-- packets under the load, web instances failed their health checks and
-- left the pool, and the provisioning service, asked for hundreds of
-- instances at once, could not start them (it hit its open-files limit,
-- then a quota) for more than an hour. Slack was degraded from 06:57 to
-- about 08:15 Pacific time.
-- Sources: L. Nolan, "Slack's Outage on January 4th 2021",
-- slack.engineering, 1 February 2021; Slack, "Incident on January 4,
-- 2021", status.slack.com.
-- What it simplifies: the morning's return is a surge of demand (1.6 to
-- 2 times the usual, climbing over 20 to 40 minutes) on one fleet; the
-- packet loss is instances lost at once (lose_instances, 35 % to 55 % of
-- those serving), which the autoscaler replaces as any shortfall; the
-- provisioning service's failure is launch_failure = 1 (every instance
-- launched while it lasts fails to start, billed while it booted) until
-- its fix is announced; the clients' background sync is the low-priority
-- traffic a load balancer can shed, and rich previews the heavy feature
-- (labels). What varies with the seed, drawn from the scenario stream:
--   when the climb starts              06:15 to 07:15
--   the morning's demand               1.6 to 2.0 times the usual
--   the climb                          20 to 40 minutes
--   when provisioning breaks           10 to 20 minutes into the climb
--   the instances lost                 35 % to 55 %, 5 to 15 minutes later
--   when provisioning is fixed         45 to 105 minutes after it broke
-- Left alone, the fleet that is left cannot carry the morning, and every
-- launch the autoscaler makes fails: a fifth of the budget or more goes,
-- more than all of it on some seeds. More
-- instances asked for are more launches that fail. What the fleet left
-- can carry is the morning without the idle clients' sync and the rich
-- previews: degraded until instances start again, then sized for the
-- whole load and restored, the morning costs a few percent of the budget.
local climb_from = 15 + math.floor(rng.uniform(0, 61))
local size = rng.uniform(1.6, 2.0)
local climb = 20 + math.floor(rng.uniform(0, 21))
local broken = climb_from + 10 + math.floor(rng.uniform(0, 11))
local lost_at = broken + 5 + math.floor(rng.uniform(0, 11))
local lost = 0.35 + 0.05 * math.floor(rng.uniform(0, 5))
local fixed = broken + 45 + math.floor(rng.uniform(0, 61))

scenario {
  id = "holiday-return",
  title = {
    en = "Back from the holidays",
    bs = "Povratak s praznika",
    id = "Kembali dari liburan",
    es = "De vuelta de las vacaciones",
    ur = "چھٹیوں کے بعد واپسی",
    fr = "Retour de vacances",
  },
  briefing = {
    en = "The first working morning of the year, from 06:00. Nine instances served the quiet night; autoscaling is on, and new instances take 5 minutes to boot. Users come back from two weeks away through the morning, their apps syncing everything they missed. 60 % of the month's error budget is left.",
    bs = "Prvo radno jutro u godini, od 06:00. Devet instanci je služilo mirnu noć; automatsko skaliranje je uključeno, a novim instancama treba 5 minuta da se podignu. Korisnici se tokom jutra vraćaju nakon dvije sedmice odsustva, a njihove aplikacije sinhronizuju sve što su propustile. Ostalo je 60 % mjesečnog budžeta grešaka.",
    id = "Pagi kerja pertama tahun ini, sejak 06:00. Sembilan instans melayani malam yang sepi; autoscaling menyala, dan instans baru butuh 5 menit untuk menyala. Sepanjang pagi pengguna kembali setelah dua minggu pergi, aplikasinya menyinkronkan semua yang terlewat. 60 % error budget bulan ini tersisa.",
    es = "La primera mañana laborable del año, desde las 06:00. Nueve instancias atendieron la noche tranquila; el autoescalado está encendido y las instancias nuevas tardan 5 minutos en arrancar. Los usuarios vuelven a lo largo de la mañana tras dos semanas fuera, y sus aplicaciones sincronizan todo lo que se perdieron. Queda el 60 % del presupuesto de errores del mes.",
    ur = "سال کی پہلی کام والی صبح، 06:00 سے۔ نو انسٹینس نے خاموش رات سنبھالی؛ آٹو اسکیلنگ چالو ہے، اور نئے انسٹینس کو بوٹ ہونے میں 5 منٹ لگتے ہیں۔ صارفین دو ہفتے بعد صبح بھر واپس آتے ہیں، اور ان کی ایپس وہ سب ہم آہنگ کرتی ہیں جو ان سے رہ گیا۔ مہینے کے ایرر بجٹ کا 60 % باقی ہے۔",
    fr = "Le premier matin travaillé de l’année, à partir de 06:00. Neuf instances ont servi la nuit calme ; la mise à l’échelle automatique est active, et les nouvelles instances mettent 5 minutes à démarrer. Les utilisateurs reviennent au fil de la matinée après deux semaines d’absence, et leurs applications synchronisent tout ce qu’elles ont manqué. Il reste 60 % du budget d’erreurs du mois.",
  },
  start = "06:00",
  duration = "3h30m",
  budget_left = 0.6,
  instances = 9,
  constants = { boot_delay = 5 },
  controls = { min_instances = 6 },
  labels = {
    shed = {
      en = "Background sync of idle clients",
      bs = "Pozadinska sinhronizacija neaktivnih klijenata",
      id = "Sinkronisasi latar klien yang diam",
      es = "Sincronización en segundo plano de clientes inactivos",
      ur = "غیر فعال کلائنٹس کی پس منظر ہم آہنگی",
      fr = "Synchronisation de fond des clients inactifs",
    },
    feature = {
      en = "Rich message previews",
      bs = "Bogati pregledi poruka",
      id = "Pratinjau pesan kaya",
      es = "Vistas previas enriquecidas de mensajes",
      ur = "پیغامات کے بھرپور پیش منظر",
      fr = "Aperçus enrichis des messages",
    },
  },
}

function surge(t)
  if t < climb_from then return 1 end
  return 1 + (size - 1) * math.min(1, (t - climb_from) / climb)
end

at(broken, function()
  set { launch_failure = 1 }
end)
-- While it is broken, the provisioning service says so in the logs.
for m = broken, fixed - 1 do
  at(m, function()
    log { level = "ERROR", source = "provisioning", message = "provisioning: cannot start instances: too many open files", count = 12 }
  end)
end

at(lost_at, function()
  lose_instances { share = lost }
  say {
    en = "Network: packet loss between zones; web instances are failing their health checks.",
    bs = "Mreža: gubitak paketa između zona; web instance padaju na provjerama ispravnosti.",
    id = "Jaringan: paket hilang antarzona; instans web gagal dalam pemeriksaan kesehatan.",
    es = "Red: pérdida de paquetes entre zonas; las instancias web fallan sus comprobaciones de salud.",
    ur = "نیٹ ورک: زونز کے درمیان پیکٹ ضائع ہو رہے ہیں؛ ویب انسٹینس اپنی صحت کی جانچ میں ناکام ہو رہے ہیں۔",
    fr = "Réseau : perte de paquets entre les zones ; des instances web échouent à leurs contrôles de santé.",
  }
end)

at(fixed, function()
  set { launch_failure = 0 }
  say {
    en = "Provisioning team: the open-files limit is raised; new instances start again.",
    bs = "Tim za provizioniranje: ograničenje otvorenih datoteka je povećano; nove instance se ponovo pokreću.",
    id = "Tim provisioning: batas berkas terbuka sudah dinaikkan; instans baru kembali bisa menyala.",
    es = "Equipo de aprovisionamiento: el límite de archivos abiertos está ampliado; las instancias nuevas vuelven a arrancar.",
    ur = "پروویژننگ ٹیم: کھلی فائلوں کی حد بڑھا دی گئی ہے؛ نئے انسٹینس پھر سے چل رہے ہیں۔",
    fr = "Équipe de provisionnement : la limite de fichiers ouverts est relevée ; les nouvelles instances démarrent de nouveau.",
  }
end)

grade {
  { metric = "budget_used",      at_most = "reference + 0.02", weight = 6 },
  { metric = "slow_minutes",     at_most = "reference + 5",    weight = 2 },
  { metric = "cost",             at_most = "reference * 1.3",  weight = 1 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
