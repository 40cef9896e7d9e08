-- Traffic surge: sometime this morning demand climbs to a multiple of the
-- usual, holds, then fades. When and how big come from the scenario stream,
-- so every seed differs and the same seed gives the same surge; the
-- briefing gives the ranges, never the seed's values:
--   the start              07:30 to 10:30
--   the peak               2.2 to 3.2 times the usual demand
--   the climb to the peak  5 to 19 minutes
--   the hold at the peak   30 to 89 minutes
--   the fade               a time constant of 20 to 60 minutes
-- New instances take 8 minutes to boot, so target tracking, which waits
-- for each launch to boot before it launches again, falls behind every
-- surge of this size.
scenario {
  id = "surge",
  title = {
    en = "Traffic surge",
    bs = "Nalet saobraćaja",
    id = "Lonjakan lalu lintas",
    es = "Pico de tráfico",
    ur = "ٹریفک میں اچانک اضافہ",
    fr = "Pic de trafic",
  },
  briefing = {
    en = "A link to the service is spreading fast and a surge of traffic is expected this morning, sometime between 07:30 and 10:30: nobody knows when, nor how big, only that demand will climb within minutes to 2.2 to 3.2 times the usual and hold for half an hour or more. New instances take 8 minutes to boot today. When it comes, keep errors and latency low without burning money on idle capacity.",
    bs = "Link do usluge se brzo širi i nalet saobraćaja očekuje se jutros, negdje između 07:30 i 10:30 — niko ne zna kada, niti koliko velik, samo da će saobraćaj za nekoliko minuta porasti na 2,2 do 3,2 puta više od uobičajenog i zadržati se pola sata ili duže. Nove instance danas trebaju 8 minuta da se podignu. Kad naiđe, držite greške i latenciju niskima bez trošenja novca na neiskorišteni kapacitet.",
    id = "Tautan ke layanan menyebar cepat dan lonjakan lalu lintas diperkirakan terjadi pagi ini, antara pukul 07:30 dan 10:30 — tak seorang pun tahu kapan, atau seberapa besar, hanya bahwa permintaan akan naik dalam hitungan menit menjadi 2,2 sampai 3,2 kali biasanya dan bertahan setengah jam atau lebih. Instans baru butuh 8 menit untuk menyala hari ini. Saat lonjakan datang, jaga galat dan latensi tetap rendah tanpa membakar uang untuk kapasitas yang menganggur.",
    es = "Un enlace al servicio se está difundiendo rápido y se espera un pico de tráfico esta mañana, entre las 07:30 y las 10:30: nadie sabe cuándo ni de qué tamaño, solo que la demanda subirá en minutos a entre 2,2 y 3,2 veces la habitual y se mantendrá media hora o más. Hoy las instancias nuevas tardan 8 minutos en arrancar. Cuando llegue, mantén bajos los errores y la latencia sin quemar dinero en capacidad ociosa.",
    ur = "سروس کا ایک لنک تیزی سے پھیل رہا ہے اور آج صبح 07:30 سے 10:30 کے درمیان کسی وقت ٹریفک میں اچانک اضافے کی توقع ہے — کوئی نہیں جانتا کب، یا کتنا بڑا، بس یہ کہ طلب چند منٹ میں معمول سے 2.2 سے 3.2 گنا تک بڑھے گی اور آدھا گھنٹہ یا اس سے زیادہ رہے گی۔ آج نئے انسٹینسز کو بوٹ ہونے میں 8 منٹ لگتے ہیں۔ جب وہ آئے تو خالی گنجائش پر پیسہ جلائے بغیر غلطیاں اور تاخیر کم رکھیں۔",
    fr = "Un lien vers le service se propage vite et un pic de trafic est attendu ce matin, entre 07:30 et 10:30 — personne ne sait quand ni de quelle ampleur, seulement que la demande montera en quelques minutes à 2,2 à 3,2 fois l’habituelle et s’y maintiendra une demi-heure ou plus. Le démarrage de nouvelles instances prend 8 minutes aujourd’hui. Quand il arrivera, gardez les erreurs et la latence faibles sans brûler d’argent dans une capacité inutilisée.",
  },
  start = "07:00",
  duration = "6h",
  constants = { boot_delay = 8 },
}

local from = clock("07:30") + math.floor(rng.uniform(0, 180)) -- 07:30 to 10:30
local size = rng.uniform(2.2, 3.2)                           -- peak multiplier
local ramp = 5 + math.floor(rng.uniform(0, 15))              -- minutes to the peak
local hold = 30 + math.floor(rng.uniform(0, 60))             -- minutes at the peak
local fade = rng.uniform(20, 60)                             -- time constant of the decline
local exp = math.exp

-- The surge's first minute shows on the timeline, as a person on call
-- hears of it, and so on the console's charts and in its debrief. It says
-- neither how big nor how long.
at(from, function()
  say {
    en = "Traffic is climbing fast: the link is spreading.",
    bs = "Saobraćaj naglo raste: link se širi.",
    id = "Lalu lintas naik cepat: tautannya menyebar.",
    es = "El tráfico sube rápido: el enlace se está difundiendo.",
    ur = "ٹریفک تیزی سے بڑھ رہی ہے: لنک پھیل رہا ہے۔",
    fr = "Le trafic grimpe vite : le lien se propage.",
  }
end)

-- A second wave, which a game day's facilitator may fire at a team: the
-- demand of the 20 minutes from its minute on is 1.6 times what it would
-- be. It draws nothing, so that a run without it is the run it was.
local wave_from, wave_to = -1, -1

inject {
  id = "second-wave",
  title = {
    en = "A second wave of traffic, 1.6 times the demand for 20 minutes",
    bs = "Drugi talas saobraćaja, 1,6 puta veći promet na 20 minuta",
    id = "Gelombang kedua lalu lintas, 1,6 kali permintaan selama 20 menit",
    es = "Una segunda ola de tráfico: 1,6 veces la demanda durante 20 minutos",
    ur = "ٹریفک کی دوسری لہر، 20 منٹ کے لیے 1.6 گنا طلب",
    fr = "Une seconde vague de trafic : 1,6 fois la demande pendant 20 minutes",
  },
  effect = function(ctx)
    wave_from, wave_to = ctx.minute, ctx.minute + 20
    say {
      en = "A second wave: the link is shared again.",
      bs = "Drugi talas: link se ponovo dijeli.",
      id = "Gelombang kedua: tautannya dibagikan lagi.",
      es = "Una segunda ola: el enlace se comparte de nuevo.",
      ur = "دوسری لہر: لنک دوبارہ شیئر ہو رہا ہے۔",
      fr = "Une seconde vague : le lien est de nouveau partagé.",
    }
  end,
}

inject {
  id = "slow-boots",
  title = {
    en = "New instances take 15 minutes to boot from now on",
    bs = "Nove instance od sada trebaju 15 minuta da se podignu",
    id = "Mulai sekarang instans baru butuh 15 menit untuk menyala",
    es = "Desde ahora las instancias nuevas tardan 15 minutos en arrancar",
    ur = "اب سے نئے انسٹینسز کو بوٹ ہونے میں 15 منٹ لگتے ہیں",
    fr = "Désormais les nouvelles instances mettent 15 minutes à démarrer",
  },
  effect = function(ctx)
    set { boot_delay = 15 }
  end,
}

local function wave(t)
  if t < from then
    return 1
  end
  local s = t - from
  if s < ramp then
    return 1 + (size - 1) * (s + 1) / ramp
  end
  if s < ramp + hold then
    return size
  end
  return 1 + (size - 1) * exp(-(s - ramp - hold) / fade)
end

function surge(t)
  if t >= wave_from and t < wave_to then
    return 1.6 * wave(t)
  end
  return wave(t)
end

grade {
  { metric = "error_requests", at_most = "reference * 1.2 + 1000", weight = 5 },
  { metric = "slow_minutes",   at_most = "reference + 5",          weight = 2 },
  { metric = "cost",           at_most = "reference * 1.25",       weight = 1 },
  { metric = "shed_share",     at_most = "reference + 0.02",       weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
