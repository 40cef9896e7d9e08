package grade

// SpoolFile is the name of a ClassJUnit's file, for the tests.
func SpoolFile(j *ClassJUnit) string { return j.file.Name() }
