package engine

import (
	"slices"
	"testing"
)

// TestCollapseNearIdenticalPassages: the install page copied into the
// folder of each release, with its version number changed and its lines
// wrapped differently, is one result; a page that differs in a word is not.
func TestCollapseNearIdenticalPassages(t *testing.T) {
	e := newHybridEngine(t, map[string]string{
		"docs/1.4/install.md": "# Installing\n\nDownload release 1.4.2 and unpack the archive; the collector binary\nstarts with the default configuration.\n",
		"docs/1.5/install.md": "# Installing\n\nDownload release 1.5.0 and unpack the archive;\nthe collector binary starts with the default configuration.\n",
		"docs/2.0/install.md": "# Installing\n\nDownload  release v2.0.1 and unpack the archive; the collector binary starts with the default configuration.\n",
		"docs/2.1/install.md": "# Installing\n\nDownload release 2.1.0 and unpack the archive; the collector binary starts with the minimal configuration.\n",
	}, nil)
	mustRefresh(t, e)
	res := query(t, e, QueryOptions{Text: "unpack the collector archive", K: 5})
	if len(res.Results) != 2 {
		t.Fatalf("results %v, want two passages (the three copies collapsed, and the one with other words)", paths(res))
	}
	var also []string
	for _, r := range res.Results {
		if r.Path == "docs/2.1/install.md" {
			if len(r.AlsoIn) != 0 {
				t.Errorf("the passage with other words collapsed others: %v", r.AlsoIn)
			}
			continue
		}
		also = append(also, r.Path)
		for _, l := range r.AlsoIn {
			also = append(also, l.Path)
		}
	}
	slices.Sort(also)
	if want := []string{"docs/1.4/install.md", "docs/1.5/install.md", "docs/2.0/install.md"}; !slices.Equal(also, want) {
		t.Errorf("collapsed copies %v, want %v", also, want)
	}
}
