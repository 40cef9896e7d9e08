-- Traffic surge: sometime this morning demand climbs to a multiple of the
-- usual, holds, then fades. When and how big come from the scenario stream,
-- so every seed differs, the same seed gives the same surge, and nothing in
-- the briefing gives either away. New instances take 8 minutes to boot.
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
    en = "A link to the service is spreading fast and a surge of traffic is expected sometime this morning: nobody knows when, nor how big. New instances take 8 minutes to boot today. When it comes, keep errors and latency low without burning money on idle capacity.",
    bs = "Link do usluge se brzo širi i očekuje se nalet saobraćaja negdje ovog jutra — niko ne zna kada, niti koliko velik. Nove instance danas trebaju 8 minuta da se podignu. Kad naiđe, držite greške i latenciju niskima bez trošenja novca na neiskorišteni kapacitet.",
    id = "Tautan ke layanan menyebar cepat dan lonjakan lalu lintas diperkirakan terjadi sekitar pagi ini — tak seorang pun tahu kapan, atau seberapa besar. Instans baru butuh 8 menit untuk menyala hari ini. Saat lonjakan datang, jaga galat dan latensi tetap rendah tanpa membakar uang untuk kapasitas yang menganggur.",
    es = "Un enlace al servicio se está difundiendo rápido y se espera un pico de tráfico en algún momento de esta mañana: nadie sabe cuándo ni de qué tamaño. Hoy las instancias nuevas tardan 8 minutos en arrancar. Cuando llegue, mantén bajos los errores y la latencia sin quemar dinero en capacidad ociosa.",
    ur = "سروس کا ایک لنک تیزی سے پھیل رہا ہے اور آج صبح کسی وقت ٹریفک میں اچانک اضافے کی توقع ہے — کوئی نہیں جانتا کب، یا کتنا بڑا۔ آج نئے انسٹینسز کو بوٹ ہونے میں 8 منٹ لگتے ہیں۔ جب وہ آئے تو خالی گنجائش پر پیسہ جلائے بغیر غلطیاں اور تاخیر کم رکھیں۔",
    fr = "Un lien vers le service se propage vite et un pic de trafic est attendu à un moment de cette matinée — personne ne sait quand ni de quelle ampleur. Le démarrage de nouvelles instances prend 8 minutes aujourd’hui. Quand il arrivera, gardez les erreurs et la latence faibles sans brûler d’argent dans une capacité inutilisée.",
  },
  start = "07:00",
  duration = "6h",
  constants = { boot_delay = 8 },
}

local from = clock("07:30") + math.floor(rng.uniform(0, 180)) -- 07:30 to 10:30
local size = rng.uniform(1.6, 3.0)                           -- peak multiplier
local ramp = 5 + math.floor(rng.uniform(0, 15))              -- minutes to the peak
local hold = 30 + math.floor(rng.uniform(0, 60))             -- minutes at the peak
local fade = rng.uniform(20, 60)                             -- time constant of the decline
local exp = math.exp

function surge(t)
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

grade {
  { metric = "error_requests", at_most = "reference * 1.2 + 1000", weight = 4 },
  { metric = "slow_minutes",   at_most = "reference + 5",          weight = 2 },
  { metric = "cost",           at_most = "reference * 1.25",       weight = 3 },
}
