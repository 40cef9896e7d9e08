package i18n

import (
	"strings"
	"testing"
)

// seedDashboards are the dashboard tables of the seeds, the product
// description in five languages, verbatim (free play at 08:00, noise off)
// but for Urdu's units of time, which the seed writes in Latin letters
// ("1 h", "30 s") and the console in the words an Urdu reader uses
// (گھنٹہ, سیکنڈ), the number isolated before them; the symbols and the
// rates that the seed writes in Latin in every language (%, ×, $/h, req/s)
// stay as it writes them.
var seedDashboards = map[string]string{
	"bs": `| Brzina sagorijevanja (1 h) | 0,0 × |
| Zahtjevi | 1125 req/s |
| Instance koje poslužuju | 10 |
| Instance se podižu | 0 |
| Stopa pogodaka keša | 77 % |
| Iskorištenost baze podataka | 19 % |
| Odbačen saobraćaj | 0 % |
| Trošak flote | 4,00 $/h |
| Dosadašnji trošak | 0,00 $ |
| Prosječna starost keširanih odgovora | 30 s |
| Saobraćaj na lošem buildu | 0 % |
| Preporuke dostupne | 100 % |`,
	"id": `| Burn rate (1 jam) | 0,0 × |
| Permintaan | 1125 req/s |
| Instance melayani | 10 |
| Instance sedang booting | 0 |
| Cache hit rate | 77 % |
| Utilisasi database | 19 % |
| Lalu lintas dibuang | 0 % |
| Biaya armada | 4,00 $/h |
| Biaya sejauh ini | 0,00 $ |
| Usia rata-rata jawaban ter-cache | 30 s |
| Lalu lintas pada build buruk | 0 % |
| Rekomendasi tersedia | 100 % |`,
	"es": `| Tasa de consumo (1 h) | 0.0 × |
| Peticiones | 1125 req/s |
| Instancias atendiendo | 10 |
| Instancias arrancando | 0 |
| Tasa de aciertos de caché | 77 % |
| Utilización de la base de datos | 19 % |
| Tráfico descartado | 0 % |
| Coste de la flota | 4.00 $/h |
| Coste hasta ahora | 0.00 $ |
| Edad media de las respuestas en caché | 30 s |
| Tráfico en la versión defectuosa | 0 % |
| Recomendaciones disponibles | 100 % |`,
	"ur": `| برن ریٹ (1 گھنٹہ) | 0.0 × |
| درخواستیں | 1125 req/s |
| سروس دیتے انسٹینس | 10 |
| شروع ہوتے انسٹینس | 0 |
| کیش ہٹ ریٹ | 77 % |
| ڈیٹا بیس کا استعمال | 19 % |
| روکا گیا ٹریفک | 0 % |
| فلیٹ کی لاگت | 4.00 $/h |
| اب تک کی لاگت | 0.00 $ |
| کیش جوابات کی اوسط عمر | 30 سیکنڈ |
| خراب بلڈ پر ٹریفک | 0 % |
| سفارشات دستیاب | 100 % |`,
	"fr": `| Taux de consommation (1 h) | 0,0 × |
| Requêtes | 1125 req/s |
| Instances en service | 10 |
| Instances en démarrage | 0 |
| Taux de succès du cache | 77 % |
| Utilisation de la base de données | 19 % |
| Trafic délesté | 0 % |
| Coût du parc | 4,00 $/h |
| Coût jusqu’ici | 0,00 $ |
| Âge moyen des réponses en cache | 30 s |
| Trafic sur la mauvaise version | 0 % |
| Recommandations disponibles | 100 % |`,
}

// TestSeedDashboards renders the seeds' dashboard from the catalogue and the
// formats, with docs/model.md's reference figures for minute 0 of free play, and
// finds each seed's table to the byte: its terms and its numbers.
func TestSeedDashboards(t *testing.T) {
	rows := []struct {
		metric string
		value  func(lang string) string
	}{
		{"burn_1h", func(l string) string { return Burn(l, 0) }},
		{"requests", func(l string) string { return T(l, "ui.unit.rps", "n", Number(l, 1125, 0)) }},
		{"serving", func(l string) string { return Number(l, 10, 0) }},
		{"booting", func(l string) string { return Number(l, 0, 0) }},
		{"hit_rate", func(l string) string { return Percent(l, 0.771429, 0) }},
		{"db_util", func(l string) string { return Percent(l, 0.192857, 0) }},
		{"shed_traffic", func(l string) string { return Percent(l, 0, 0) }},
		{"cost_per_hour", func(l string) string { return MoneyPerHour(l, 4) }},
		{"cost", func(l string) string { return Money(l, 0) }},
		{"cache_age_s", func(l string) string { return T(l, "ui.unit.s", "n", Number(l, 30, 0)) }},
		{"bad_traffic", func(l string) string { return Percent(l, 0, 0) }},
		{"recommendations", func(l string) string { return Percent(l, 1, 0) }},
	}
	for lang, want := range seedDashboards {
		var got []string
		for _, r := range rows {
			got = append(got, "| "+T(lang, MetricLabelKey(r.metric))+" | "+r.value(lang)+" |")
		}
		if g := strings.Join(got, "\n"); g != want {
			t.Errorf("%s dashboard:\n%s\nthe seed:\n%s", lang, g, want)
		}
	}
}
