package agentapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/autorag/autorag/mirror"
)

// ReadRequest names lines of one source file.
type ReadRequest struct {
	Path  string `json:"path" jsonschema:"file path relative to the root, / separated, as search results give it"`
	Start int    `json:"start,omitempty" jsonschema:"first line, 1-based (default 1)"`
	End   int    `json:"end,omitempty" jsonschema:"last line, inclusive (default start+199; at most 2000 lines per call)"`
}

// ReadResult is the text of the lines read.
type ReadResult struct {
	OK         bool   `json:"ok"`
	Outcome    string `json:"outcome"`
	Path       string `json:"path"`
	Lines      [2]int `json:"lines"`       // the lines returned, 1-based and inclusive (as in search results)
	TotalLines int    `json:"total_lines"` // the last line of the file
	Text       string `json:"text"`
}

// Read limits.
const (
	defaultReadLines = 200
	maxReadLines     = 2000
)

// ErrNotFound reports a read of a path with no file.
var ErrNotFound = errors.New("no such file")

// Read returns lines of the source at r.Path as the index sees it (the
// parsed text, so line numbers are those of search results), under the
// rules of indexing: see mirror.ReadSource. A refused path wraps
// mirror.ErrNotSource, a missing one ErrNotFound.
func (a *API) Read(ctx context.Context, r ReadRequest) (*ReadResult, error) {
	start, end, err := r.span()
	if err != nil {
		return nil, err
	}
	doc, err := mirror.ReadSource(ctx, a.Root(), r.Path, a.e.Settings.MaxFileSize)
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
	start = max(start, first)
	end = min(end, total)
	out := &ReadResult{OK: true, Outcome: "ok", Path: r.Path, Lines: [2]int{start, end}, TotalLines: total}
	if start > end {
		out.Lines = [2]int{start, start - 1}
		return out, nil
	}
	out.Text = strings.Join(lines[start-first:end-first+1], "")
	return out, nil
}

func (r ReadRequest) span() (start, end int, err error) {
	start, end = max(r.Start, 1), r.End
	if r.Start < 0 || r.End < 0 {
		return 0, 0, usagef("start and end must be positive line numbers")
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
