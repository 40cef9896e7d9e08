-- Bad deploy: a new build ships at 09:10 with 20 % of the month's error
-- budget left. How bad the build is comes from the scenario stream, so that
-- every seed differs and the same seed gives the same incident:
--   the bad build's error rate   8 % to 20 % of the requests it serves
--   its extra CPU time           +25 % to +75 % of the application's
--   its rollout                  2 to 8 minutes to reach the whole fleet
-- The burn-rate page fires a few minutes after the deploy (from about 5
-- minutes for the worst build to about 15 for the mildest) and, left
-- alone, the build spends most of the budget left within the shift.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local error_rate = round(rng.uniform(0.08, 0.20), 0.001)
local cpu = round(rng.uniform(0.25, 0.75), 0.01)
local rollout = 2 + math.floor(rng.uniform(0, 7))

scenario {
  id = "bad-deploy",
  title = {
    en = "Bad deploy",
    bs = "Loš deploy",
    id = "Deploy buruk",
    es = "Despliegue defectuoso",
    ur = "خراب ڈیپلائے",
    fr = "Mauvais déploiement",
  },
  briefing = {
    en = "A new build ships at 09:10. The month has been hard: only 20 % of the error budget is left. How bad the build is varies from one shift to the next: it fails 8 to 20 % of the requests it serves, costs 25 to 75 % more CPU, and takes 2 to 8 minutes to reach the whole fleet. A few minutes after the deploy the burn-rate page fires. Protect the budget.",
    bs = "Novi build izlazi u 09:10. Mjesec je već bio težak: ostalo je samo 20 % budžeta grešaka. Koliko je build loš mijenja se od smjene do smjene: ne uspijeva 8 do 20 % zahtjeva koje obrađuje, troši 25 do 75 % više CPU-a i treba mu 2 do 8 minuta da stigne do cijele flote. Nekoliko minuta nakon isporuke oglašava se upozorenje o brzini sagorijevanja. Zaštitite budžet.",
    id = "Build baru dirilis pukul 09:10. Bulan ini sudah berat: hanya 20 % error budget tersisa. Seberapa buruk build itu berbeda dari satu giliran jaga ke giliran berikutnya: 8 sampai 20 % permintaan yang dilayaninya gagal, CPU-nya 25 sampai 75 % lebih banyak, dan butuh 2 sampai 8 menit untuk mencapai seluruh armada. Beberapa menit setelah deploy, halaman peringatan burn-rate berbunyi. Lindungi budget.",
    es = "Una versión nueva sale a las 09:10. El mes ya ha sido duro: solo queda el 20 % del presupuesto de errores. Lo mala que es la versión cambia de un turno a otro: falla entre el 8 y el 20 % de las peticiones que atiende, gasta entre un 25 y un 75 % más de CPU y tarda de 2 a 8 minutos en llegar a toda la flota. Minutos después del despliegue salta la alerta de tasa de consumo. Protege el presupuesto.",
    ur = "09:10 بجے نئی بلڈ جاری ہوتی ہے۔ مہینہ پہلے ہی سخت رہا ہے: ایرر بجٹ کا صرف 20 % باقی ہے۔ بلڈ کتنی خراب ہے یہ ہر شفٹ میں مختلف ہوتا ہے: اس کی سنبھالی ہوئی درخواستوں میں سے 8 سے 20 % ناکام ہوتی ہیں، یہ 25 سے 75 % زیادہ CPU لیتی ہے، اور پورے فلیٹ تک پہنچنے میں 2 سے 8 منٹ لگاتی ہے۔ ڈیپلائے کے چند منٹ بعد برن ریٹ پیج بجتا ہے۔ بجٹ کی حفاظت کریں۔",
    fr = "Une nouvelle version est déployée à 09:10. Le mois a déjà été difficile : il ne reste que 20 % du budget d’erreurs. La gravité du défaut change d’une garde à l’autre : la version fait échouer de 8 à 20 % des requêtes qu’elle sert, consomme de 25 à 75 % de CPU en plus et met de 2 à 8 minutes à atteindre tout le parc. Quelques minutes après le déploiement, l’alerte de taux de consommation se déclenche. Protégez le budget.",
  },
  start = "09:00",
  duration = "2h",
  budget_left = 0.20,
}

at("09:10", function()
  -- Production announces the build by its name; what it does to the
  -- requests it serves shows only in what they do.
  deploy { build = "4.2.0", error_rate = error_rate, cpu = 1 + cpu, rollout = rollout }
end)

-- The bounds let the textbook answer, a rollback when the page fires,
-- pass: the multiwindow page fires once about 2 % of the month's budget is
-- spent (a burn of 14.4 for an hour is 2 % of 30 days) and a rollback takes
-- 5 minutes to prepare, so waiting for the page spends up to 3.5 % of the
-- budget more than the reference, which rolls back at the first errors;
-- the harm ends 6 minutes after the page (a minute to press Roll back,
-- five to prepare it), which minutes_to_mitigate allows beyond the
-- reference's and no more. It is a deadline, met or missed whole, and
-- weighs 4: on the budget's log scale a rollback 15 minutes after the
-- reference's still closes most of the gap from doing nothing, and with
-- partial credit on 2 points it kept 86 % (oncall ladder's "late by 15");
-- missing the deadline holds it near half.
grade {
  { metric = "budget_used",         at_most = "reference + 0.035", weight = 6 },
  { metric = "minutes_to_mitigate", at_most = "reference + 6",     weight = 4, scoring = "pass" },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 2 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
