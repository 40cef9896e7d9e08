-- Certificate expiry: the certificate the app presents to payments, another
-- team's service, expires at a minute nobody put in a calendar. From then
-- every call to payments fails (dep_error_rate = 1) and, as each one
-- retries its TLS handshake until the app's 10 s timeout, holds its worker
-- for seconds: the pool runs dry and requests that never call payments fail
-- too. What varies with the seed, drawn from the scenario stream:
--   when the certificate expires        09:20 to 10:40
--   the share of requests that call payments   20 % to 35 %
--   a deploy of a good build            5 to 15 minutes before, a decoy
--   when payments' team rotates it      30 to 50 minutes after it expired
-- The logs say what it is: an "x509: certificate has expired" line from
-- payments every minute a call is made. Opening the circuit breaker fails
-- the payments requests at once and serves the rest: it saves more than
-- half of the failed requests, read from the logs or from errors_by. Rolling back the decoy build saves nothing
-- and loses a good build. Once payments' team says the new certificate is
-- in, the breaker is closed again.
local function round(x, step) return math.floor(x / step + 0.5) * step end
local expiry = 20 + math.floor(rng.uniform(0, 81))
local share = round(rng.uniform(0.20, 0.35), 0.01)
local decoy = expiry - 5 - math.floor(rng.uniform(0, 11))
local rotated = expiry + 30 + math.floor(rng.uniform(0, 21))

scenario {
  id = "cert-expiry",
  title = {
    en = "Certificate expiry",
    bs = "Istek certifikata",
    id = "Sertifikat kedaluwarsa",
    es = "Certificado caducado",
    ur = "سرٹیفکیٹ کی میعاد ختم",
    fr = "Certificat expiré",
  },
  briefing = {
    en = "A morning shift from 09:00, with half of the month's error budget left. 20 to 35 % of the requests call payments, another team's service; the app waits up to 10 s for it. A routine build ships during the morning. Some time before 10:40 the errors start: read the logs before you act.",
    bs = "Jutarnja smjena od 09:00, s polovinom mjesečnog budžeta grešaka. 20 do 35 % zahtjeva poziva payments, servis drugog tima; aplikacija ga čeka do 10 s. Tokom jutra izlazi rutinski build. Negdje prije 10:40 počinju greške: pročitajte logove prije nego što djelujete.",
    id = "Giliran jaga pagi sejak 09:00, dengan setengah error budget bulan ini tersisa. 20 sampai 35 % permintaan memanggil payments, layanan tim lain; aplikasi menunggunya sampai 10 s. Sebuah build rutin dirilis pagi ini. Sebelum 10:40 error mulai muncul: baca log sebelum bertindak.",
    es = "Un turno de mañana desde las 09:00, con la mitad del presupuesto de errores del mes. Entre el 20 y el 35 % de las peticiones llaman a payments, el servicio de otro equipo; la aplicación lo espera hasta 10 s. Durante la mañana sale una versión rutinaria. En algún momento antes de las 10:40 empiezan los errores: lee los logs antes de actuar.",
    ur = "09:00 سے صبح کی شفٹ، مہینے کے ایرر بجٹ کا آدھا باقی ہے۔ 20 سے 35 % درخواستیں payments کو کال کرتی ہیں، جو دوسری ٹیم کی سروس ہے؛ ایپ اس کا 10 s تک انتظار کرتی ہے۔ صبح کے دوران ایک معمول کی بلڈ جاری ہوتی ہے۔ 10:40 سے کچھ پہلے ایررز شروع ہوتے ہیں: کچھ کرنے سے پہلے لاگز پڑھیں۔",
    fr = "Une garde du matin à partir de 09:00, avec la moitié du budget d’erreurs du mois. De 20 à 35 % des requêtes appellent payments, le service d’une autre équipe ; l’application l’attend jusqu’à 10 s. Une version de routine est déployée dans la matinée. Un peu avant 10:40, les erreurs commencent : lisez les logs avant d’agir.",
  },
  start = "09:00",
  duration = "3h",
  budget_left = 0.5,
  constants = { dep_share = share, dep_ms = 20, dep_name = "payments", dep_timeout_ms = 10000 },
}

-- The decoy: a good build, announced like any other, shortly before.
at(decoy, function()
  deploy { build = "5.8.1", rollout = 3 }
end)

local expired = false
at(expiry, function()
  expired = true
  set { dep_error_rate = 1, dep_ms = 8000 }
end)

-- Payments writes the handshake's failure for every call made: none while
-- the breaker is open.
function on_minute(row)
  if expired and not row.breaker then
    local calls = math.floor(60 * row.admitted * share + 0.5)
    if calls > 0 then
      log { level = "ERROR", source = "payments", message = "x509: certificate has expired or is not yet valid", count = calls }
    end
  end
end

at(rotated, function()
  expired = false
  set { dep_error_rate = 0, dep_ms = 20 }
  say {
    en = "Payments team: the expired certificate is rotated; calls to payments succeed again.",
    bs = "Payments tim: istekli certifikat je zamijenjen; pozivi prema payments ponovo uspijevaju.",
    id = "Tim payments: sertifikat yang kedaluwarsa sudah diganti; panggilan ke payments kembali berhasil.",
    es = "Equipo de payments: el certificado caducado está renovado; las llamadas a payments vuelven a funcionar.",
    ur = "Payments ٹیم: میعاد ختم سرٹیفکیٹ بدل دیا گیا ہے؛ payments کو کالز پھر سے کامیاب ہو رہی ہیں۔",
    fr = "Équipe payments : le certificat expiré est remplacé ; les appels à payments réussissent de nouveau.",
  }
end)
for k = 0, 4 do
  at(rotated + k, function()
    log { level = "INFO", source = "payments", message = "payments: certificate rotated", count = 1 }
  end)
end

-- A rollback of the decoy build loses a good build and saves nothing: the
-- reference never presses it.
grade {
  { metric = "budget_used",         at_most = "reference + 0.01",  weight = 6 },
  { metric = "minutes_to_mitigate", at_most = "reference + 10",    weight = 2 },
  { metric = "good_rollbacks",      at_most = "reference",         weight = 2, scoring = "pass" },
  { metric = "cost",                at_most = "reference * 1.5",   weight = 1 },
  { metric = "recommendations",  at_least = "reference - 0.05", weight = 1 },
  { metric = "shed_share",       at_most  = "reference + 0.01", weight = 1 },
  { metric = "mean_cache_age_s", at_most  = "reference + 30",   weight = 1 },
}
