package golden

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/oncall-sim/oncall/grade"
)

// PublicSeeds is the public seed set of the references shipped with oncall.
const PublicSeeds = "1-20"

//go:embed testdata/reference
var publicFS embed.FS

// PublicReferenceDir is where the public references live, under the
// package's directory; one file a scenario, <scenario>.json.
const PublicReferenceDir = "testdata/reference"

// PublicReferences returns the public references shipped with oncall, one
// file a scenario merged into one, in the order of the file names.
func PublicReferences() (*grade.ReferenceFile, error) {
	return mergeReferences(publicFS, PublicReferenceDir)
}

func mergeReferences(fsys fs.FS, dir string) (*grade.ReferenceFile, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	all := &grade.ReferenceFile{Format: grade.ReferenceFormat}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		f, err := grade.ReadReferences("golden/"+p, data)
		if err != nil {
			return nil, err
		}
		all.References = append(all.References, f.References...)
	}
	if len(all.References) == 0 {
		return nil, fmt.Errorf("golden/%s holds no reference: record them with GOLDIE_UPDATE=1 go test ./golden/", dir)
	}
	return all, all.Check()
}
