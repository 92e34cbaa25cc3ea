package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
)

// addFilterFlags adds the metadata filters of `query`.
func addFilterFlags(cmd *cobra.Command, o *queryOptions) {
	cmd.Flags().StringArrayVar(&o.filters, "filter", nil,
		"only files whose metadata field has this value, key=value (repeatable; all must hold; e.g. author=ada, tag=ops, from=alice@example.com)")
	cmd.Flags().StringVar(&o.docType, "type", "", "only files of this type: "+strings.Join(engine.Types, "|"))
}

// resultLocation is where a result is, for people: "docs/a.md:3-9", or
// "report.pdf#page=2" for a PDF page.
func resultLocation(r engine.Result) string {
	if r.Page > 0 {
		return fmt.Sprintf("%s#page=%d", r.Path, r.Page)
	}
	return fmt.Sprintf("%s:%d-%d", r.Path, r.Lines[0], r.Lines[1])
}
