// Package i18n is the translation catalogue that the web console and the
// command line share, in English, Bosnian (bs), Indonesian (id), Spanish
// (es), Urdu (ur, written right to left) and French (fr), and the way each
// of these languages writes numbers.
//
// # The catalogue
//
// The texts live in catalog/, embedded in the binary: for each language,
// <lang>.json holds the model's words (controls, metrics, outcomes,
// relations, events, the model page), ui.<lang>.json the web console's
// own ("ui.*") and team.<lang>.json those of team game days (the team's
// page, the facilitator's console, the postmortem; "ui.*" too). A
// language's catalogue is the merge of its files. The
// terms are the seeds' own: a learner who has read the product description
// in Bosnian finds the same words on the dashboard.
//
// Keys are derived from the engine's tables, so that adding a control, a
// metric, an outcome figure, a relation or a kind of event to the engine
// calls for its texts (a test fails until they exist in every language):
//
//	control.<name>.label, control.<name>.help   engine.ControlSpecs
//	metric.<name>.label (.unit if a word)       engine.MetricSpecs
//	outcome.<name>.label (.unit if a word)      engine.OutcomeSpecs
//	constant.<name>.label                       engine.ConstantSpecs (a scenario may change them)
//	formula.<id>                                engine.Relations (English: Relation.Formula)
//	relation.<id>                               engine.Relations (English: Relation.Text)
//	source.<n>                                  engine.Sources that are prose (the assumptions)
//	approximation.<i>                           engine.Approximations, numbered from 1
//	event.<kind>[.<variant>]                    engine.EventKinds; see EventKey
//
// plus a few named keys (NamedKeys): the product's first paragraph, the
// model page's headings and notes, the words for a switch that is on or off,
// two units written after a number. EventText renders an engine event in a
// language from these keys, ControlValue and ConstantValue a value; the web
// console's server writes its timeline and its decisions' values with them,
// so that the page holds no copy.
//
// A relation's text names the quantities it prints (engine.Quantities) as
// placeholders, "{bad_error_rate}", which the model page fills with the
// values in force, as the relation's formula does.
//
// # Placeholders
//
// A message may hold placeholders, a name in braces: "Autoscaler launched
// instances: {n}". T fills them from pairs of name and value; "{{" and "}}"
// are literal braces. Every translation of a message has the same
// placeholders as the English one (a test checks it). The web page fills
// them the same way (format.js, fill).
//
// # Plurals
//
// A message that counts something has one text per plural form of the
// language, under the keys "<key>#<form>", the forms being CLDR's cardinal
// categories: "unit.days#one" and "unit.days#other" in English, "#one",
// "#few" and "#other" in Bosnian (1 and 21 dan, 2 dana, 5 dana), "#other"
// alone in Indonesian. N picks the form by CLDR's rules through
// golang.org/x/text/feature/plural, reading the digits as Number writes
// them (French "1,5 jour"); the page picks it with the browser's
// Intl.PluralRules, which carries the same rules (format.js, pluralKey; a
// test compares both from 0 to 1000 in every language). A test holds each
// language's file to exactly the forms its rules reach (PluralForms).
//
// # Numbers
//
// Each language has a Format: decimal and group separators, the number of
// digits from which a number is grouped, and patterns for a percentage,
// dollars, dollars an hour, a burn rate and minutes, "{n}" standing for the
// number. The seeds' dashboard rows settle them: "4,00 $/h", "0,0 ×", "77 %"
// and "1125 req/s" in Bosnian, Indonesian and French; "4.00 $/h" and
// "0.0 ×" in Spanish and Urdu; "$4.00/h" in English. Number, Percent, Money,
// MoneyPerHour, Burn and Minutes write them in Go; the page receives the
// Format in its Payload and format.js repeats the same algorithm, digit for
// digit (a test runs both on the same values when Node.js is installed), so
// the browser's Intl, whose separators vary by version and platform, is not
// used. format.js is the one copy kept on purpose: the page writes every
// tile and axis as each minute arrives, which the server cannot do for it
// in six languages at no cost; Money and Burn are there as its reference.
//
// Values inside right-to-left text (Urdu) are written with Latin digits, as
// the seeds do, and isolated (Isolate: LRI or RLI and PDI around each
// value that EventText fills, by the value's first strong letter, as the
// page does with FSI around the values it fills and with <bdi> for those
// it shows alone) so that "4.00 $/h" keeps its order and "7 منٹ" reads
// number first, as Urdu writes it.
//
// Nothing in the package changes after the catalogue is first read: the
// maps handed out are copies.
package i18n
