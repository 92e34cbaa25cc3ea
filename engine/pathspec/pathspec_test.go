package pathspec

import "testing"

var paths = []string{
	"reference/7.5/Microsoft.PowerShell.Utility/ConvertTo-Json.md",
	"reference/7.4/Microsoft.PowerShell.Utility/ConvertTo-Json.md",
	"reference/5.1/Microsoft.PowerShell.Utility/ConvertTo-Json.md",
	"reference/7.50/x.md",
	"pdf/report.pdf",
	"pdf/sub/deep.pdf",
	"docs/corrupt/a.md",
	"corrupt.md",
	"README.md",
}

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		patterns []string
		want     []string
	}{
		// A directory is its subtree (not reference/7.50).
		{[]string{"reference/7.5"}, []string{paths[0]}},
		{[]string{"reference/7.5/"}, []string{paths[0]}},
		{[]string{"./pdf/**"}, []string{paths[4], paths[5]}},
		{[]string{"./pdf"}, []string{paths[4], paths[5]}},
		{[]string{"pdf/*"}, []string{paths[4], paths[5]}}, // pdf/sub is matched, and with it its subtree
		{[]string{"*.pdf"}, []string{paths[4], paths[5]}},
		// A name without / is a file or directory at any depth.
		{[]string{"corrupt"}, []string{paths[6]}},
		{[]string{"corrupt.md"}, []string{paths[7]}},
		{[]string{"{reference/7.4/**,pdf/**}"}, []string{paths[1], paths[4], paths[5]}},
		{[]string{"reference/{7.4,5.1}"}, []string{paths[1], paths[2]}},
		{[]string{"reference/**", "!reference/5.1/**"}, []string{paths[0], paths[1], paths[3]}},
		{[]string{"!reference"}, []string{paths[4], paths[5], paths[6], paths[7], paths[8]}},
		// Repeated patterns are alternatives.
		{[]string{"pdf/report.pdf", "README.md"}, []string{paths[4], paths[8]}},
		{[]string{"[Rr]EADME.md"}, []string{paths[8]}},
	} {
		s, err := Compile(tt.patterns)
		if err != nil {
			t.Fatalf("%q: %v", tt.patterns, err)
		}
		var got []string
		for _, p := range paths {
			if s.Match(p) {
				got = append(got, p)
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("%q matches %q, want %q", tt.patterns, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q matches %q, want %q", tt.patterns, got, tt.want)
				break
			}
		}
	}
}

func TestCompileEdges(t *testing.T) {
	if s, err := Compile(nil); s != nil || err != nil || !s.Match("x") {
		t.Errorf("Compile(nil) = %v, %v", s, err)
	}
	for _, bad := range [][]string{{""}, {"!"}, {"./"}, {"{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}"}} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q) accepted", bad)
		}
	}
	if s, _ := Compile([]string{"{a"}); !s.Match("{a") {
		t.Error("an unpaired brace is not literal")
	}
}
