package main

import "strings"

// codeExts are the source files the corpus reader takes as code.
var codeExts = map[string]bool{
	".go": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true,
	".py": true, ".js": true, ".ts": true, ".java": true, ".kt": true, ".scala": true,
	".rs": true, ".rb": true, ".ex": true, ".lua": true,
}

// codePassages cuts a source file into passages of about passageChars:
// blank-line separated blocks (declarations, mostly) are joined while
// they fit, and a longer block is cut at line ends into passages of its
// own. Passages with few letters (tables of numbers, generated data)
// are left out.
func codePassages(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if t := strings.TrimSpace(cur.String()); len(t) > 80 && letters(t)*3 > len(t) {
			out = append(out, t)
		}
		cur.Reset()
	}
	for _, block := range strings.Split(s, "\n\n") {
		if strings.TrimSpace(block) == "" {
			continue
		}
		if cur.Len() > 0 && cur.Len()+len(block) > passageChars {
			flush()
		}
		for _, line := range strings.SplitAfter(block, "\n") {
			if cur.Len() > 0 && cur.Len()+len(line) > passageChars {
				flush()
			}
			cur.WriteString(line)
		}
		cur.WriteString("\n\n")
		if len(block) > passageChars {
			flush() // the next block does not share the long one's tail
		}
	}
	flush()
	return out
}

// letters counts the ASCII letters of s.
func letters(s string) int {
	n := 0
	for i := range len(s) {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			n++
		}
	}
	return n
}
