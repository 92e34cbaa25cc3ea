package copies

import "strings"

// Item is one result to group: its path and its document's signature.
type Item struct {
	Path string
	Sig  Signature
}

// Thresholds of Similarity above which two documents are copies: siblings
// (paths that differ in one folder) need SiblingMin, others OtherMin.
const (
	SiblingMin = 0.5
	OtherMin   = 0.9
)

// Group is a set of copies: Show is the index of the item to show, Also the
// others in rank order.
type Group struct {
	Show int
	Also []int
}

// GroupCopies groups items (in rank order) into copies, returning the
// groups in the rank order of their best-ranked member. named are the
// words of the query and the --path patterns: a copy in a folder they name
// ("5.1") is shown; otherwise the preferred version is.
func GroupCopies(items []Item, named []string) []Group {
	groupOf := make([]int, len(items))
	var groups [][]int
	for i := range items {
		groupOf[i] = -1
		for g, members := range groups {
			if copyOf(items[members[0]], items[i]) {
				groupOf[i] = g
				groups[g] = append(groups[g], i)
				break
			}
		}
		if groupOf[i] < 0 {
			groupOf[i] = len(groups)
			groups = append(groups, []int{i})
		}
	}
	out := make([]Group, len(groups))
	for g, members := range groups {
		show := pick(items, members, named)
		out[g].Show = show
		for _, m := range members {
			if m != show {
				out[g].Also = append(out[g].Also, m)
			}
		}
	}
	return out
}

// copyOf reports whether b is a copy of a.
func copyOf(a, b Item) bool {
	sim := Similarity(a.Sig, b.Sig)
	if sim >= OtherMin {
		return true
	}
	_, _, sib := Siblings(a.Path, b.Path)
	return sib && sim >= SiblingMin
}

// pick chooses the member to show: one in a folder named, else the
// preferred version, else the best-ranked (members are in rank order).
func pick(items []Item, members []int, named []string) int {
	best := members[0]
	for _, m := range members[1:] {
		segBest, segM, ok := Siblings(items[best].Path, items[m].Path)
		if !ok {
			continue
		}
		nb, nm := isNamed(segBest, named), isNamed(segM, named)
		switch {
		case nm && !nb:
			best = m
		case nb == nm && CompareVersions(segM, segBest) > 0:
			best = m
		}
	}
	return best
}

// isNamed reports whether seg is one of named, or a path segment of one.
func isNamed(seg string, named []string) bool {
	for _, n := range named {
		if strings.EqualFold(n, seg) {
			return true
		}
		for part := range strings.SplitSeq(n, "/") {
			if strings.EqualFold(strings.TrimPrefix(part, "!"), seg) && !strings.HasPrefix(n, "!") {
				return true
			}
		}
	}
	return false
}
