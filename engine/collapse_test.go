package engine

import (
	"slices"
	"testing"
)

// TestCollapseNearIdenticalPassages: the install page copied into the
// folder of each release, with its version number changed, its lines
// wrapped differently or a word changed, is one result, shown from the
// newest release; --no-collapse keeps them apart.
func TestCollapseNearIdenticalPassages(t *testing.T) {
	e := newHybridEngine(t, map[string]string{
		"docs/1.4/install.md": "# Installing\n\nDownload release 1.4.2 and unpack the archive; the collector binary\nstarts with the default configuration.\n",
		"docs/1.5/install.md": "# Installing\n\nDownload release 1.5.0 and unpack the archive;\nthe collector binary starts with the default configuration.\n",
		"docs/2.0/install.md": "# Installing\n\nDownload  release v2.0.1 and unpack the archive; the collector binary starts with the default configuration.\n",
		"docs/2.1/install.md": "# Installing\n\nDownload release 2.1.0 and unpack the archive; the collector binary starts with the minimal configuration.\n",
	}, nil)
	mustRefresh(t, e)
	res := query(t, e, QueryOptions{Text: "unpack the collector archive", K: 5})
	if len(res.Results) != 1 || res.Results[0].Path != "docs/2.1/install.md" {
		t.Fatalf("results %v, want the newest copy alone", paths(res))
	}
	var also []string
	for _, l := range res.Results[0].AlsoIn {
		also = append(also, l.Path)
	}
	slices.Sort(also)
	if want := []string{"docs/1.4/install.md", "docs/1.5/install.md", "docs/2.0/install.md"}; !slices.Equal(also, want) {
		t.Errorf("collapsed copies %v, want %v", also, want)
	}
	if all := query(t, e, QueryOptions{Text: "unpack the collector archive", K: 5, NoCollapse: true}); len(all.Results) != 4 {
		t.Errorf("--no-collapse: %v, want the four files", paths(all))
	}
}
