package engine

// EventKinds returns every kind of event that reaches a timeline, in the
// order of their declaration, so that the translation catalogue can hold a
// message for each and a test can see that none is missing. (EventLog
// does not: its line is in the minute's logs.)
func EventKinds() []EventKind {
	return []EventKind{
		EventDeploy, EventFlush, EventSetConstant, EventScale, EventRamp, EventSetControl, EventSay, EventDepName,
		EventLoseInstances, EventAction, EventLaunch, EventRemove, EventLaunchFailed, EventRollbackDone, EventPage,
		EventResolve,
	}
}
