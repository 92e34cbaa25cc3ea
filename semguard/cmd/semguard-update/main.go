// Command semguard-update records the digests of the semantics guard
// (make semguard-update). See semguard/doc.go.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/autorag/autorag/semguard"
)

func main() {
	refactor := flag.Bool("refactor", false, "record guarded changes without a version bump: the change stores the same bytes for every input")
	root := flag.String("root", ".", "the module root")
	flag.Parse()
	msg, err := semguard.Update(*root, semguard.Project, *refactor)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(msg)
}
