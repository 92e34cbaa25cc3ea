package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/autorag/autorag/mirror/parse"
)

// maxFrontmatter bounds the YAML handed to the decoder; a longer block is
// still kept out of the body but yields no title or tags.
const maxFrontmatter = 64 << 10

// parseMarkdown splits YAML frontmatter off normalized markdown text and
// extracts the title and tags.
func parseMarkdown(text string) *Doc {
	d := &Doc{Parser: markdownParser, Lang: "markdown", Text: text}
	if fm, body, lines, ok := splitFrontmatter(text); ok {
		d.Text, d.LineOffset = body, lines
		d.Title, d.Tags, d.Fields = frontmatterMeta(fm)
	}
	if d.Title == "" {
		d.Title = firstHeading(d.Text)
	}
	return d
}

// splitFrontmatter recognizes a block that opens with a "---" line on the
// first line and closes with the next "---" or "..." line. It returns the
// YAML between the fences, the rest of the text and the number of lines the
// block (fences included) spans. Without a closing fence there is no
// frontmatter: the opening line is then a thematic break.
func splitFrontmatter(text string) (fm, body string, lines int, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || strings.TrimRight(first, " \t") != "---" {
		return "", text, 0, false
	}
	lines = 1
	for off := 0; off < len(rest); {
		line, _, more := strings.Cut(rest[off:], "\n")
		next := off + len(line) + 1
		lines++
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			return rest[:off], rest[min(next, len(rest)):], lines, true
		}
		if !more {
			break
		}
		off = next
	}
	return "", text, 0, false
}

// Bounds of the fields kept from frontmatter.
const (
	maxFields     = 64
	maxFieldValue = 256 // bytes
)

// frontmatterMeta reads title, tags and the top-level scalar fields from
// YAML frontmatter. Malformed or oversized YAML yields nothing; it is never
// an error.
func frontmatterMeta(fm string) (title string, tags []string, fields []Field) {
	if len(fm) > maxFrontmatter || strings.TrimSpace(fm) == "" {
		return "", nil, nil
	}
	defer func() {
		// yaml.v3 has panicked on hostile input before; a source file must
		// never take the scan down.
		if recover() != nil {
			title, tags, fields = "", nil, nil
		}
	}()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(fm), &m); err != nil {
		return "", nil, nil
	}
	// Keys are matched case-insensitively and visited in sorted order so
	// that map iteration order never leaks into the Doc (and its hash).
	keys := slices.Sorted(maps.Keys(m))
	for _, field := range []string{"tags", "keywords"} {
		for _, k := range keys {
			if strings.EqualFold(k, field) {
				tags = append(tags, tagList(m[k])...)
			}
		}
	}
	for _, k := range keys {
		v := scalarString(m[k])
		if title == "" && strings.EqualFold(k, "title") {
			title = v
		}
		isTags := strings.EqualFold(k, "tags") || strings.EqualFold(k, "keywords")
		if v != "" && !isTags && len(v) <= maxFieldValue && len(fields) < maxFields {
			fields = append(fields, Field{Key: k, Value: v})
		}
	}
	return title, dedupe(tags), parse.SortFields(fields)
}

// scalarString renders a YAML scalar on one line; collections yield "".
func scalarString(v any) string {
	switch t := v.(type) {
	case nil, map[string]any, []any:
		return ""
	case time.Time:
		if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
			return t.Format(time.DateOnly)
		}
		return t.Format(time.RFC3339)
	}
	return strings.Join(strings.Fields(fmt.Sprint(v)), " ")
}

// tagList accepts a list of scalars or one string. A string is split on
// commas when it has any, else on whitespace (Jekyll's convention).
func tagList(v any) []string {
	switch t := v.(type) {
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			out = append(out, scalarString(e))
		}
		return out
	case string:
		if strings.Contains(t, ",") {
			return strings.Split(t, ",")
		}
		return strings.Fields(t)
	}
	if s := scalarString(v); s != "" {
		return []string{s}
	}
	return nil
}

// dedupe collapses whitespace in tags, drops empty ones and repeats, keeping
// first-seen order.
func dedupe(tags []string) []string {
	var out []string
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		t = strings.Join(strings.Fields(t), " ")
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// firstHeading returns the text of the first ATX level-1 heading ("# Title")
// outside fenced code blocks, or "".
func firstHeading(body string) string {
	fence := ""
	for line := range strings.Lines(body) {
		line = strings.TrimRight(line, "\n")
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 {
			continue
		}
		if f := fenceOf(trimmed); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence[:1]) && len(f) >= len(fence):
				fence = ""
			}
			continue
		}
		if fence == "" {
			if t, ok := headingText(trimmed); ok {
				return t
			}
		}
	}
	return ""
}

// fenceOf returns the run of ``` or ~~~ (3 or more) opening a line, or "".
func fenceOf(line string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// headingText parses "# Title #" into "Title".
func headingText(line string) (string, bool) {
	if !strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "#\t") {
		return "", false
	}
	t := strings.TrimSpace(line[2:])
	if s := strings.TrimRight(t, "#"); s == "" || strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") {
		t = strings.TrimSpace(s)
	}
	if t == "" {
		return "", false
	}
	return strings.Join(strings.Fields(t), " "), true
}
