package scenario

import (
	"fmt"

	"github.com/oncall-sim/oncall/dsl"
)

// sourceText turns a file's bytes into the text the Lua parser reads (see
// dsl.SourceText); Lua writes a control character in a string as "\27".
func sourceText(file string, src []byte) (string, *dsl.Diagnostic) {
	return dsl.SourceText(file, src, "a scenario is a Lua source file", func(c rune) string {
		return fmt.Sprintf(`"\%d"`, c)
	})
}
