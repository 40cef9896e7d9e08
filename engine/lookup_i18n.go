package engine

// EventKinds returns every kind of event, in the order of their declaration,
// so that the translation catalogue can hold a message for each and a test
// can see that none is missing.
func EventKinds() []EventKind {
	return []EventKind{
		EventDeploy, EventFlush, EventSetConstant, EventScale, EventRamp, EventSetControl, EventSay, EventAction,
		EventLaunch, EventRemove, EventRollbackDone, EventPage, EventResolve,
	}
}
