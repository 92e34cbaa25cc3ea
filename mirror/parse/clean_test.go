package parse

import "testing"

func TestJoinHyphensAndDropControls(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ef\x02fects", "effects"},
		{"op\x02\ntimizations", "optimizations"},
		{"op\x02\r\ntimizations and more", "optimizations and more"},
		{"soft\u00ad\nhyphen", "softhyphen"},
		{"soft\u00adhyphen", "softhyphen"},
		{"well-known\nwords", "well-known\nwords"},
		{"bell\x07 esc\x1b del\x7f c1\u0085 end", "bell esc del c1 end"},
		{"form\ffeed\vtab\tcr\rlf\n", "form feed tab\tcr\nlf\n"},
		{"plain text, ünïcode", "plain text, ünïcode"},
	} {
		if got := DropControls(JoinHyphens(tt.in)); got != tt.want {
			t.Errorf("clean %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBuilderCleansEveryLine(t *testing.T) {
	b := NewBuilder(1 << 10)
	b.Line("a hyphen\u00ad\nated word\x01")
	b.Line("next")
	text, _ := b.Text()
	if text != "a hyphenated word\nnext\n" || b.Lines() != 2 {
		t.Errorf("text %q with %d lines", text, b.Lines())
	}
}
