package engine

// spec is a line of one of the engine's tables (constants, controls,
// metrics, outcomes): what it is looked up by.
type spec interface{ specName() string }

func (s ConstantSpec) specName() string { return s.Name }
func (s ControlSpec) specName() string  { return s.Name }
func (s MetricSpec) specName() string   { return s.Name }
func (s OutcomeSpec) specName() string  { return s.Name }

// namesOf returns the canonical names of a table, in its order.
func namesOf[S spec](table []S) []string {
	names := make([]string, len(table))
	for i, s := range table {
		names[i] = s.specName()
	}
	return names
}

// find returns the line of a table named name.
func find[S spec](table []S, name string) (S, bool) {
	for _, s := range table {
		if s.specName() == name {
			return s, true
		}
	}
	var zero S
	return zero, false
}
