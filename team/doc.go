// Package team is a team's shift on a game day: a log and its fold.
//
// A team plays one shared shift of the game day's scenario and seed. Its
// log is the truth: an ordered list of entries, each numbered (Seq), each
// with the minute of the shift it was stored at, who wrote it and in which
// role. A member joins, leaves, hands a role on; the incident commander
// starts, pauses, speeds and steps the clock; operations (and the
// commander) decide; communications posts status updates; the scribe
// notes the timeline; the facilitator messages, injects the scenario's
// surprises and reassigns roles; the clock's ticks say which minute the
// shift reached. The server checks every entry against the role of the one
// who writes it (Check) before it is stored, and acknowledges it only
// once stored.
//
// State is the fold of a log: members and roles, the clock, the minute,
// the decisions and injects. Shift gives the shift.Shift the log makes:
// the scenario, the seed, the decisions and the injects, each at the
// minute its entry was stored at; the trace is that shift's run, byte for
// byte, whoever replays it (the live view, a share link, the postmortem).
//
// Live is a console's replica of one team's shift: the fold and the run
// beside it, up to the last entry stored. It appends an entry the way a
// replicated log does: checked against the replica, stored under the next
// number only if no other console stored one first (Store.Append refuses
// a number taken), then folded and sent to the members connected to this
// console; a replica that lost the race reads what it missed and tries
// again. Every member's connection reads the entries after the last one it
// saw (Subscribe), through a bounded queue: a member who cannot keep up is
// dropped and resumes from its last entry.
//
// Hubs holds the replicas of a console and runs the clock of the teams
// whose clock it holds (a lease in the store, so that of several consoles
// one ticks a team): at the team's speed it stores a tick whenever the
// shift is due a minute further, so that a console that dies stops the
// clock where the last tick left it, and the console that takes over goes
// on from there. Entries other consoles store reach a replica through
// Notify (PostgreSQL's LISTEN/NOTIFY, or polling a SQLite file).
//
// Postmortem draws a blameless postmortem draft from a finished shift:
// summary, impact, the timeline with the metrics at each of its minutes,
// the reference policy's timeline beside it, and the team's decisions
// graded by the scenario's criteria as a policy's run is; Markdown writes
// it in any language of the catalogue.
//
// Nothing here knows of HTTP: package web turns it into requests, streams
// and pages, and package gameday stores the logs.
package team
