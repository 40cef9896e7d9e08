-- Bad deploy, any time: a grading variant of bad-deploy for instructors.
-- It is bad-deploy with one more draw: the deploy comes at a minute drawn
-- from the scenario stream between 09:05 and 10:05, not at 09:10. A policy
-- keyed on the clock ("roll back at 09:11") learns bad-deploy's script, not
-- the incident; graded against this variant it rolls back before the bad
-- build ships, or a good build, and scores little. Grade with it as with
-- any scenario file:
--
--   oncall golden record -s scenarios/variants/bad-deploy-anytime.lua \
--     -p scripts/bad-deploy.rules --seeds 1000-1049 -o anytime.json
--   oncall grade -p student.rules --reference anytime.json \
--     --scenario scenarios/variants/bad-deploy-anytime.lua
--
-- The build is drawn first and as in bad-deploy, so that a seed gives the
-- same build in both and only its time differs:
--   the bad build's error rate   8 % to 20 % of the requests it serves
--   its extra CPU time           +25 % to +75 % of the application's
--   its rollout                  2 to 8 minutes to reach the whole fleet
--   the deploy                   09:05 to 10:05
-- It is not built in: the console lists the seed scenarios, and this one
-- only grades. Keep a copy beside the references recorded with it.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local error_rate = round(rng.uniform(0.08, 0.20), 0.001)
local cpu = round(rng.uniform(0.25, 0.75), 0.01)
local rollout = 2 + math.floor(rng.uniform(0, 7))

scenario {
  id = "bad-deploy-anytime",
  title = {
    en = "Bad deploy, any time",
    bs = "Loš deploy, bilo kada",
    id = "Deploy buruk, kapan saja",
    es = "Despliegue defectuoso, a cualquier hora",
    ur = "خراب ڈیپلائے، کسی بھی وقت",
    fr = "Mauvais déploiement, à toute heure",
  },
  briefing = {
    en = "A new build ships sometime between 09:05 and 10:05. The month has been hard: only 20 % of the error budget is left. How bad the build is varies from one shift to the next: it fails 8 to 20 % of the requests it serves, costs 25 to 75 % more CPU, and takes 2 to 8 minutes to reach the whole fleet. A few minutes after the deploy the burn-rate page fires. Protect the budget.",
    bs = "Novi build izlazi negdje između 09:05 i 10:05. Mjesec je već bio težak: ostalo je samo 20 % budžeta grešaka. Koliko je build loš mijenja se od smjene do smjene: ne uspijeva 8 do 20 % zahtjeva koje obrađuje, troši 25 do 75 % više CPU-a i treba mu 2 do 8 minuta da stigne do cijele flote. Nekoliko minuta nakon isporuke oglašava se upozorenje o brzini sagorijevanja. Zaštitite budžet.",
    id = "Build baru dirilis antara pukul 09:05 dan 10:05. Bulan ini sudah berat: hanya 20 % error budget tersisa. Seberapa buruk build itu berbeda dari satu giliran jaga ke giliran berikutnya: 8 sampai 20 % permintaan yang dilayaninya gagal, CPU-nya 25 sampai 75 % lebih banyak, dan butuh 2 sampai 8 menit untuk mencapai seluruh armada. Beberapa menit setelah deploy, halaman peringatan burn-rate berbunyi. Lindungi budget.",
    es = "Una versión nueva sale en algún momento entre las 09:05 y las 10:05. El mes ya ha sido duro: solo queda el 20 % del presupuesto de errores. Lo mala que es la versión cambia de un turno a otro: falla entre el 8 y el 20 % de las peticiones que atiende, gasta entre un 25 y un 75 % más de CPU y tarda de 2 a 8 minutos en llegar a toda la flota. Minutos después del despliegue salta la alerta de tasa de consumo. Protege el presupuesto.",
    ur = "09:05 اور 10:05 کے درمیان کسی وقت نئی بلڈ جاری ہوتی ہے۔ مہینہ پہلے ہی سخت رہا ہے: ایرر بجٹ کا صرف 20 % باقی ہے۔ بلڈ کتنی خراب ہے یہ ہر شفٹ میں مختلف ہوتا ہے: اس کی سنبھالی ہوئی درخواستوں میں سے 8 سے 20 % ناکام ہوتی ہیں، یہ 25 سے 75 % زیادہ CPU لیتی ہے، اور پورے فلیٹ تک پہنچنے میں 2 سے 8 منٹ لگاتی ہے۔ ڈیپلائے کے چند منٹ بعد برن ریٹ پیج بجتا ہے۔ بجٹ کی حفاظت کریں۔",
    fr = "Une nouvelle version est déployée entre 09:05 et 10:05. Le mois a déjà été difficile : il ne reste que 20 % du budget d’erreurs. La gravité du défaut change d’une garde à l’autre : la version fait échouer de 8 à 20 % des requêtes qu’elle sert, consomme de 25 à 75 % de CPU en plus et met de 2 à 8 minutes à atteindre tout le parc. Quelques minutes après le déploiement, l’alerte de taux de consommation se déclenche. Protégez le budget.",
  },
  start = "09:00",
  duration = "2h",
  budget_left = 0.20,
}

local deploy_at = clock("09:05") + math.floor(rng.uniform(0, 61)) -- 09:05 to 10:05

at(deploy_at, function()
  -- Production announces the build by its name; what it does to the
  -- requests it serves shows only in what they do.
  deploy { build = "4.2.0", error_rate = error_rate, cpu = 1 + cpu, rollout = rollout }
end)

-- bad-deploy's criteria and bounds, unchanged.
grade {
  { metric = "budget_used",         at_most = "reference + 0.035", weight = 6 },
  { metric = "minutes_to_mitigate", at_most = "reference + 6",     weight = 4, scoring = "pass" },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
