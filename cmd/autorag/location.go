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
// "report.pdf#page=2" for a PDF page, or for an e-mail attachment
// "mail.eml#attachment=report.pdf" with "&page=2" for its pages (the lines
// of an attachment are not lines of the mail file, so they are left out).
func resultLocation(r engine.Result) string {
	switch {
	case r.Attachment != "" && r.Page > 0:
		return fmt.Sprintf("%s&page=%d", attachmentLocation(r.Path, r.Attachment), r.Page)
	case r.Attachment != "":
		return attachmentLocation(r.Path, r.Attachment)
	case r.Page > 0:
		return fmt.Sprintf("%s#page=%d", r.Path, r.Page)
	}
	return fmt.Sprintf("%s:%d-%d", r.Path, r.Lines[0], r.Lines[1])
}

// fragmentEscaper keeps an attachment's name from breaking its location's
// fragment: "%", "&" and "#" are percent-encoded.
var fragmentEscaper = strings.NewReplacer("%", "%25", "&", "%26", "#", "%23")

// attachmentLocation is "mail.eml#attachment=report.pdf".
func attachmentLocation(path, attachment string) string {
	return path + "#attachment=" + fragmentEscaper.Replace(attachment)
}
