package copies

import (
	"fmt"
	"strings"
	"testing"
)

// page is a synthetic reference page of cmdlet, with common boilerplate;
// edit adds a sentence to a few of its paragraphs, as a later version would.
func page(cmdlet string, edit int) string {
	words := strings.Fields("object input output pipeline string property value depth format type member array hash table stream error parameter switch alias path item file content")
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s\n\n", cmdlet)
	x := uint32(len(cmdlet)) * 2654435761
	for _, c := range cmdlet {
		x = x*31 + uint32(c)
	}
	for i := range 30 {
		for range 12 {
			x = x*1664525 + 1013904223
			sb.WriteString(words[x>>16%uint32(len(words))] + " ")
		}
		if i < edit {
			sb.WriteString("This parameter was added in a later version. ")
		}
		sb.WriteString("\n\n")
	}
	sb.WriteString("## CommonParameters\n\nThis cmdlet supports the common parameters: -Debug, -ErrorAction, -Verbose.\n")
	return sb.String()
}

func TestSimilarity(t *testing.T) {
	a, b := Sign(page("ConvertTo-Json", 0)), Sign(page("ConvertTo-Json", 3))
	other := Sign(page("Get-ChildItem", 0))
	t.Logf("copy %.2f, other %.2f", Similarity(a, b), Similarity(a, other))
	if s := Similarity(a, a); s != 1 {
		t.Errorf("self similarity %.2f", s)
	}
	if s := Similarity(a, b); s < SiblingMin {
		t.Errorf("a page and its edited copy: %.2f, want >= %.2f", s, SiblingMin)
	}
	if s := Similarity(a, other); s >= SiblingMin {
		t.Errorf("two different cmdlets: %.2f, want < %.2f", s, SiblingMin)
	}
	if Similarity(nil, a) != 0 || Sign("") != nil {
		t.Error("empty text is similar to something")
	}
}

func TestCompareVersions(t *testing.T) {
	order := []string{"latest", "current", "7.10", "7.5", "v7.4", "7.4.1", "5.1", "docs"}
	for i := 0; i+1 < len(order); i++ {
		if c := CompareVersions(order[i], order[i+1]); c <= 0 && order[i+1] != "7.4.1" {
			t.Errorf("CompareVersions(%q, %q) = %d, want > 0", order[i], order[i+1], c)
		}
	}
	if CompareVersions("7.4.1", "v7.4") <= 0 {
		t.Error("7.4.1 is not newer than v7.4")
	}
	if CompareVersions("en", "ja") != 0 {
		t.Error("two languages are ordered")
	}
}

func TestIsCopyAndPrefer(t *testing.T) {
	to51 := Item{"reference/5.1/Utility/ConvertTo-Json.md", Sign(page("ConvertTo-Json", 0))}
	to74 := Item{"reference/7.4/Utility/ConvertTo-Json.md", Sign(page("ConvertTo-Json", 2))}
	from74 := Item{"reference/7.4/Utility/ConvertFrom-Json.md", Sign(page("ConvertFrom-Json", 0))}
	moved := Item{"docs/other/ConvertTo-Json.md", Sign(page("ConvertTo-Json", 0))}
	renamed := Item{"reference/7.4/Utility/ConvertTo-JsonV2.md", Sign(page("ConvertTo-Json", 30))}
	for _, tt := range []struct {
		a, b Item
		want bool
	}{
		{to51, to74, true},     // siblings with small edits
		{to51, from74, false},  // another page
		{to51, moved, false},   // the same text in an unrelated folder: not a sibling
		{to74, renamed, false}, // edited and not a sibling: too far apart
		{to51, to51, false},    // a file is not a copy of itself
	} {
		if got := IsCopy(tt.a, tt.b); got != tt.want {
			t.Errorf("IsCopy(%s, %s) = %v (similarity %.2f)", tt.a.Path, tt.b.Path, got, Similarity(tt.a.Sig, tt.b.Sig))
		}
	}
	for _, tt := range []struct {
		a, b  string
		named []string
		want  bool
	}{
		{to51.Path, to74.Path, nil, true},
		{to74.Path, to51.Path, nil, false},
		{to74.Path, to51.Path, []string{"convert", "5.1"}, true}, // the query names 5.1
		{to51.Path, to74.Path, []string{"reference/7.4/**"}, true},
		{to51.Path, to74.Path, []string{"!reference/7.4/**"}, true}, // an exclusion names nothing
		{"en/docs/a.md", "ja/docs/a.md", nil, false},                // a query of no known language: English
		{"docs/de/docs/deployment/docker.md", "docs/en/docs/deployment/docker.md", []string{"tls", "termination", "proxy", "https", "certificate"}, true},
		{"de/docs/a.md", "ja/docs/a.md", nil, false},                // two others keep their rank order
		{"en/docs/a.md", "ja/docs/a.md", []string{"ja"}, true},      // the query's language
		{"pt-br/docs/a.md", "en-us/docs/a.md", []string{"x"}, true}, // English with a region
		{to51.Path, moved.Path, nil, false},
	} {
		if got := Prefer(tt.a, tt.b, tt.named); got != tt.want {
			t.Errorf("Prefer(%s, %s, %q) = %v", tt.a, tt.b, tt.named, got)
		}
	}
}

func TestSwap(t *testing.T) {
	sig := func(p string) Signature { return Sign(page("ConvertTo-Json", strings.Count(p, "7"))) }
	all := []string{
		"docs/de/docs/deployment/docker.md", "docs/en/docs/deployment/docker.md", "docs/ja/docs/deployment/docker.md",
		"docs/en/docs/deployment/https.md", "docs/en/docs/other/docker.md",
		"reference/5.1/x.md", "reference/7.4/x.md", "reference/7.5/x.md",
	}
	for _, tt := range []struct {
		path  string
		named []string
		want  string
	}{
		{"docs/de/docs/deployment/docker.md", nil, "docs/en/docs/deployment/docker.md"},
		{"docs/de/docs/deployment/docker.md", []string{"ja"}, "docs/ja/docs/deployment/docker.md"},
		{"docs/de/docs/deployment/docker.md", []string{"de"}, ""},
		{"docs/en/docs/deployment/docker.md", nil, ""},
		{"docs/en/docs/deployment/https.md", nil, ""},
		{"reference/5.1/x.md", nil, "reference/7.5/x.md"},
		{"reference/5.1/x.md", []string{"5.1"}, ""},
	} {
		got := Swap(tt.path, SiblingCandidates(tt.path, all), tt.named, sig)
		if got != tt.want {
			t.Errorf("Swap(%s, %q) = %q, want %q", tt.path, tt.named, got, tt.want)
		}
	}
	if c := SiblingCandidates("docs/de/docs/deployment/docker.md", all); len(c) != 2 {
		t.Errorf("siblings of the German page: %q, want the English and Japanese ones", c)
	}
	if InFolderOfCopies("docs/deployment/docker.md") || !InFolderOfCopies("docs/de/docs/x.md") || !InFolderOfCopies("reference/7.5/x.md") {
		t.Error("InFolderOfCopies")
	}
}
