package agentapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/autorag/autorag/mirror"
)

// ReadRequest names lines of one source file.
type ReadRequest struct {
	Path  string `json:"path" jsonschema:"file path relative to the root, / separated, as search results give it"`
	Start int    `json:"start,omitempty" jsonschema:"first line, 1-based (default 1)"`
	End   int    `json:"end,omitempty" jsonschema:"last line, inclusive (default start+199; at most 2000 lines per call)"`
	// Offset continues a line a read trimmed: the byte of line Start to
	// begin at (a trimmed read's next.offset).
	Offset int `json:"offset,omitempty" jsonschema:"byte offset into line start where to begin, to go on with a line a read trimmed (its next.offset); default 0"`
}

// ReadResult is the text of the lines read.
type ReadResult struct {
	OK      bool   `json:"ok"`
	Outcome string `json:"outcome"` // "ok", or "empty" when no line of the range holds indexed text
	Path    string `json:"path"`
	// Lines are the lines returned, 1-based and inclusive (as in search
	// results): the range asked for, clamped to the file's indexed lines;
	// [0, 0] when that leaves none (Note says why).
	Lines      [2]int `json:"lines"`
	TotalLines int    `json:"total_lines"` // the last line of the file
	// Pages are the first and last page the lines are on, for paged
	// formats (PDF); omitted for others.
	Pages *[2]int `json:"pages,omitempty"`
	Text  string  `json:"text"`
	Note  string  `json:"note,omitempty"` // why the range is empty
	// Trimmed says that Text stops before the end of the range, at
	// maxReadBytes (on a line's end when a line fits, else inside it);
	// Next is where the read that goes on starts.
	Trimmed bool      `json:"trimmed,omitempty"`
	Next    *ReadNext `json:"next,omitempty"`
}

// ReadNext is where a read that goes on with a trimmed one starts: its
// start line and byte offset in that line.
type ReadNext struct {
	Start  int `json:"start"`
	Offset int `json:"offset,omitempty"`
}

// Read limits.
const (
	defaultReadLines = 200
	maxReadLines     = 2000
	maxReadBytes     = 256 << 10 // of text per read, however long its lines
)

// ErrNotFound reports a read of a path with no file.
var ErrNotFound = errors.New("no such file")

// Read returns lines of the source at r.Path as the index sees it (the
// parsed text, so line numbers are those of search results), under the
// rules of indexing: see mirror.ReadSource. A refused path wraps
// mirror.ErrNotSource, a missing one ErrNotFound.
func (a *API) Read(ctx context.Context, r ReadRequest) (*ReadResult, error) {
	start, end, err := r.span()
	if err == nil {
		err = a.e.Layout.CheckRoot()
	}
	if err != nil {
		return nil, err
	}
	mirrors := mirror.OpenMirrors(a.e.Layout.ManifestPath(), a.e.Layout.ObjectsDir())
	doc, err := mirror.ReadSourceFrom(ctx, a.Root(), r.Path, a.e.Settings.MaxFileSize, mirrors)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", r.Path, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(doc.Text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	first, total := doc.LineOffset+1, doc.LineOffset+len(lines)
	out := &ReadResult{OK: true, Outcome: "ok", Path: r.Path, TotalLines: total}
	if note := emptyRange(start, end, first, total); note != "" {
		out.Outcome, out.Note = "empty", note
		return out, nil
	}
	start, end = max(start, first), min(end, total)
	offset := 0
	if start == r.Start {
		offset = min(r.Offset, len(lines[start-first]))
	}
	text, last, next := capBytes(lines[start-first:end-first+1], offset, maxReadBytes)
	out.Lines = [2]int{start, start + last}
	out.Text = text
	switch {
	case next == 0: // line last was whole, the next one is not in
		out.Trimmed, out.Next = true, &ReadNext{Start: start + last + 1}
	case next > 0: // line last goes on at byte next
		out.Trimmed, out.Next = true, &ReadNext{Start: start + last, Offset: next}
	}
	out.Pages = pagesOf(doc, start-first, out.Lines[1]-first)
	return out, nil
}

// capBytes joins lines, the first from byte offset, into at most limit
// bytes: whole lines while they fit, else (the first line alone over the
// limit) its bytes up to the limit, cut on a character boundary. It
// returns the text, the index of the last line it holds some of, and
// where the rest starts: 0 when line last was whole and lines follow, the
// byte offset in line last when it was cut, -1 when nothing was left out.
func capBytes(lines []string, offset, limit int) (text string, last, next int) {
	var b strings.Builder
	for i, l := range lines {
		if i == 0 {
			l = l[offset:]
		}
		if b.Len()+len(l) <= limit {
			b.WriteString(l)
			continue
		}
		if i > 0 {
			return b.String(), i - 1, 0
		}
		cut := limit
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		return l[:cut], 0, offset + cut
	}
	return b.String(), len(lines) - 1, -1
}

// emptyRange says why lines start to end hold none of the indexed lines
// first to total, or "" when some are in it.
func emptyRange(start, end, first, total int) string {
	switch {
	case total < first:
		return "the file has no indexed text"
	case start > total:
		return fmt.Sprintf("the file ends at line %d", total)
	case end < first:
		return fmt.Sprintf("lines 1-%d are front matter, which is not indexed: the text starts at line %d", first-1, first)
	}
	return ""
}

// pagesOf is the first and last page of doc's text lines from to to
// (0-based), or nil when doc has no pages.
func pagesOf(doc *mirror.Doc, from, to int) *[2]int {
	var pages [2]int
	for i, p := range doc.Parts {
		next := len(doc.Text) // past any line
		if i+1 < len(doc.Parts) {
			next = doc.Parts[i+1].Line
		}
		if p.Page == 0 || next <= from || p.Line > to {
			continue
		}
		if pages[0] == 0 {
			pages[0] = p.Page
		}
		pages[1] = p.Page
	}
	if pages[0] == 0 {
		return nil
	}
	return &pages
}

func (r ReadRequest) span() (start, end int, err error) {
	start, end = max(r.Start, 1), r.End
	if r.Start < 0 || r.End < 0 || r.Offset < 0 {
		return 0, 0, usagef("start, end and offset must be positive")
	}
	if end == 0 {
		end = start + defaultReadLines - 1
	}
	if end < start {
		return 0, 0, usagef("end %d is before start %d", end, start)
	}
	if end-start+1 > maxReadLines {
		return 0, 0, usagef("at most %d lines per read, asked for %d", maxReadLines, end-start+1)
	}
	return start, end, nil
}
