-- Canary: a new build goes out to 5 % of the traffic and is held there
-- (hold_at); the release bot promotes it to everyone 20 to 30 minutes later
-- unless someone stops it. What varies with the seed, drawn from the
-- scenario stream:
--   when the canary starts         09:20 to 10:00
--   whether its build is bad       three seeds in four
--   how bad: the share it fails    15 % to 40 % of the requests it serves
--   when the bot promotes it       20 to 30 minutes after it started
-- Held at 5 %, a bad canary fails at most 2 % of the requests and pages
-- late, but errors_by("build") and the logs (its "NullPointerException in
-- checkout" line, with its name) show it from the first minute. Rolled back
-- then, it costs a tenth of what waiting for the page lets through, and a
-- tenth at most of what it costs left alone: promoted, it fails its share
-- of every request to the end of the shift, more than the 30 % of the
-- budget left on the median seed. Nobody but the on-call or the bot
-- promotes a good canary: held, it keeps the release from the customers
-- (canary_minutes, graded). A good canary rolled back is lost for nothing:
-- the grade counts it (good_rollbacks), and so does a rollback of the
-- routine build that ships at 09:05 on every seed.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local start = 20 + math.floor(rng.uniform(0, 41))
local good = rng.uniform(0, 1) < 0.25
local error_rate = round(rng.uniform(0.15, 0.40), 0.01)
local promote = start + 20 + math.floor(rng.uniform(0, 11))

scenario {
  id = "canary",
  title = {
    en = "Canary",
    bs = "Kanarinac",
    id = "Canary",
    es = "Canario",
    ur = "کینری",
    fr = "Canari",
  },
  briefing = {
    en = "A morning shift from 09:00, with 30 % of the month's error budget left. A routine build ships at 09:05. Later, build 6.1.0 goes out as a canary: 5 % of the traffic, held there until the release bot promotes it to everyone 20 to 30 minutes on. Some canaries are bad, some are fine. Read errors_by(\"build\") and the logs, and decide before the promotion: roll a bad one back, promote a good one (resume_rollout): held, it keeps the release from the customers.",
    bs = "Jutarnja smjena od 09:00, s 30 % mjesečnog budžeta grešaka. U 09:05 izlazi rutinski build. Kasnije build 6.1.0 izlazi kao kanarinac: 5 % saobraćaja, zadržan dok ga bot za izdanja ne proširi na sve 20 do 30 minuta kasnije. Neki kanarinci su loši, neki su dobri. Čitajte errors_by(\"build\") i logove i odlučite prije proširenja: loš vratite, dobar proširite (resume_rollout): dok je zadržan, izdanje ne stiže do korisnika.",
    id = "Giliran jaga pagi sejak 09:00, dengan 30 % error budget bulan ini tersisa. Build rutin dirilis pukul 09:05. Kemudian build 6.1.0 dirilis sebagai canary: 5 % lalu lintas, ditahan di sana sampai bot rilis mempromosikannya ke semua pengguna 20 sampai 30 menit kemudian. Ada canary yang buruk, ada yang baik. Baca errors_by(\"build\") dan log, lalu putuskan sebelum promosi: rollback yang buruk, promosikan yang baik (resume_rollout): selama ditahan, rilisnya tidak sampai ke pelanggan.",
    es = "Un turno de mañana desde las 09:00, con el 30 % del presupuesto de errores del mes. A las 09:05 sale una versión rutinaria. Más tarde, la versión 6.1.0 sale como canario: el 5 % del tráfico, retenida ahí hasta que el bot de versiones la promueve a todos entre 20 y 30 minutos después. Algunos canarios son malos y otros están bien. Lee errors_by(\"build\") y los logs, y decide antes de la promoción: revierte uno malo, promueve uno bueno (resume_rollout): mientras está retenido, la versión no llega a los clientes.",
    ur = "09:00 سے صبح کی شفٹ، مہینے کے ایرر بجٹ کا 30 % باقی ہے۔ 09:05 بجے ایک معمول کی بلڈ جاری ہوتی ہے۔ بعد میں بلڈ 6.1.0 کینری کے طور پر جاتی ہے: ٹریفک کا 5 %، وہیں روکی ہوئی، یہاں تک کہ ریلیز بوٹ 20 سے 30 منٹ بعد اسے سب تک بڑھا دیتا ہے۔ کچھ کینریاں خراب ہوتی ہیں، کچھ ٹھیک۔ errors_by(\"build\") اور لاگز پڑھیں، اور بڑھائے جانے سے پہلے فیصلہ کریں: خراب کو رول بیک کریں، ٹھیک کو آگے بڑھائیں (resume_rollout): جب تک یہ رکی رہے، ریلیز صارفین تک نہیں پہنچتی۔",
    fr = "Une garde du matin à partir de 09:00, avec 30 % du budget d’erreurs du mois. Une version de routine est déployée à 09:05. Plus tard, la version 6.1.0 part en canari : 5 % du trafic, retenue là jusqu’à ce que le robot de livraison la promeuve pour tous, 20 à 30 minutes après. Certains canaris sont mauvais, d’autres sains. Lisez errors_by(\"build\") et les logs, et décidez avant la promotion : annulez un mauvais canari, promouvez un bon (resume_rollout) : tant qu’il est retenu, la version n’atteint pas les clients.",
  },
  start = "09:00",
  duration = "3h",
  budget_left = 0.30,
}

at("09:05", function()
  deploy { build = "6.0.3", rollout = 2 }
end)

at(start, function()
  if good then
    deploy { build = "6.1.0", rollout = 5, hold_at = 0.05 }
  else
    deploy { build = "6.1.0", rollout = 5, hold_at = 0.05, error_rate = error_rate,
             error = "NullPointerException in checkout" }
  end
end)

at(promote, function()
  resume_rollout()
end)

-- The minutes a canary is held at its small share, neither rolled back
-- nor promoted: customers wait for a good release while it is held, and a
-- bad one fails requests. The routine build's 2-minute rollout counts for
-- every policy alike.
outcome {
  name = "canary_minutes",
  unit = "min",
  value = function(rows)
    local n = 0
    for _, r in ipairs(rows) do
      if r.new_build > 0 and r.new_build < 1 then n = n + 1 end
    end
    return n
  end,
}

-- The bounds: the reference rolls a bad canary back at its first errors
-- and promotes a good one after 10 clean minutes; a rollback of a good build, the canary or the
-- routine one, is a fault no saving in the budget makes up for. Deciding
-- is the lesson: a canary held at 5 % costs the budget little either way,
-- so the minutes it is held weigh 4, and its errors are held to 1.2 times
-- the reference's; with them at 2 and 1.5 times, the reference acting 15
-- minutes late kept 66 % (oncall ladder).
grade {
  { metric = "budget_used",         at_most = "reference + 0.01",  weight = 6 },
  { metric = "error_requests",      at_most = "reference * 1.2 + 1000", weight = 2 },
  { metric = "canary_minutes",      at_most = "reference + 5",     weight = 4 },
  { metric = "good_rollbacks",      at_most = "reference",         weight = 2, scoring = "pass" },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 1 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
