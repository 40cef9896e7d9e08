-- Bad deploy: a new build ships at 09:10 with 20 % of the month's error
-- budget left. The bad build fails 15 % of its requests (the model's default
-- is 5 %), so that the burn-rate page fires a few minutes after the deploy
-- and, left alone, the build spends the rest of the budget within the shift.
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
    en = "A new build ships at 09:10. The month has been hard: only 20 % of the error budget is left. A few minutes after the deploy the burn-rate page fires. Protect the budget.",
    bs = "Novi build izlazi u 09:10. Mjesec je već bio težak: ostalo je samo 20 % budžeta grešaka. Nekoliko minuta nakon isporuke oglašava se upozorenje o brzini sagorijevanja. Zaštitite budžet.",
    id = "Build baru dirilis pukul 09:10. Bulan ini sudah berat: hanya 20 % error budget tersisa. Beberapa menit setelah deploy, halaman peringatan burn-rate berbunyi. Lindungi budget.",
    es = "Una versión nueva sale a las 09:10. El mes ya ha sido duro: solo queda el 20 % del presupuesto de errores. Minutos después del despliegue salta la alerta de tasa de consumo. Protege el presupuesto.",
    ur = "09:10 بجے نئی بلڈ جاری ہوتی ہے۔ مہینہ پہلے ہی سخت رہا ہے: ایرر بجٹ کا صرف 20 % باقی ہے۔ ڈیپلائے کے چند منٹ بعد برن ریٹ پیج بجتا ہے۔ بجٹ کی حفاظت کریں۔",
    fr = "Une nouvelle version est déployée à 09:10. Le mois a déjà été difficile : il ne reste que 20 % du budget d’erreurs. Quelques minutes après le déploiement, l’alerte de taux de consommation se déclenche. Protégez le budget.",
  },
  start = "09:00",
  duration = "2h",
  budget_left = 0.20,
  constants = { bad_error_rate = 0.15 },
}

at("09:10", function()
  deploy { build = "bad", rollout = 3 }
  say {
    en = "Build 4.2.0 is rolling out to the fleet.",
    bs = "Build 4.2.0 se isporučuje floti.",
    id = "Build 4.2.0 sedang dirilis ke armada.",
    es = "La versión 4.2.0 se está desplegando en la flota.",
    ur = "بلڈ 4.2.0 فلیٹ پر جاری ہو رہی ہے۔",
    fr = "La version 4.2.0 est en cours de déploiement sur le parc.",
  }
end)

grade {
  { metric = "budget_used",         at_most = "reference + 0.005", weight = 6 },
  { metric = "minutes_to_mitigate", at_most = "reference + 10",    weight = 2 },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 2 },
}
