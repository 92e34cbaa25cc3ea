package parse

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name, raw, want, enc string
	}{
		{"utf-8", "café", "café", "utf-8"},
		{"utf-8 bom", "\xef\xbb\xbfcafé", "café", "utf-8"},
		{"utf-16le bom", "\xff\xfec\x00\xe9\x00", "cé", "utf-16le"},
		{"utf-16be bom", "\xfe\xff\x00c\x00\xe9", "cé", "utf-16be"},
		{"utf-16le no bom", "h\x00e\x00l\x00l\x00o\x00", "hello", "utf-16le"},
		{"utf-16be no bom", "\x00h\x00e\x00l\x00l\x00o", "hello", "utf-16be"},
		{"windows-1252", "caf\xe9 \x80 na\xefve", "café € naïve", "windows-1252"},
		{"shift_jis", "\x93\x8c\x8b\x9e\x82\xcc\x93V\x8bC\x82\xcd\x90\xb0\x82\xea\x82\xc5\x82\xb7", "東京の天気は晴れです", "shift_jis"},
		{"euc-kr", "\xc0\xcc\xb9\xf8 \xba\xd0\xb1\xe2", "이번 분기", "euc-kr"},
	}
	for _, tt := range tests {
		got, enc, err := Decode([]byte(tt.raw))
		if err != nil || string(got) != tt.want || enc != tt.enc {
			t.Errorf("%s: Decode = %q, %q, %v; want %q, %q", tt.name, got, enc, err, tt.want, tt.enc)
		}
	}
	if _, _, err := Decode([]byte("ab\x00\x00\x01cd")); !errors.Is(err, ErrBinary) {
		t.Errorf("NUL bytes: err = %v, want ErrBinary", err)
	}
}

func TestTextNormalizes(t *testing.T) {
	got, _, err := Text([]byte("cafe\u0301\r\nx\ry"))
	if err != nil || got != "café\nx\ny" {
		t.Errorf("Text = %q, %v", got, err)
	}
}

type stuck struct{}

func (stuck) Name() string { return "stuck@1" }
func (stuck) Parse(ctx context.Context, in *Input) (*Doc, error) {
	select {} // ignores ctx: Run must not wait for it
}

type panics struct{}

func (panics) Name() string                                { return "panics@1" }
func (panics) Parse(context.Context, *Input) (*Doc, error) { panic("boom") }

type verbose struct{}

func (verbose) Name() string { return "verbose@1" }
func (verbose) Parse(_ context.Context, in *Input) (*Doc, error) {
	return &Doc{Text: string(make([]byte, in.Limits.MaxText+1))}, nil
}

func TestRunBounds(t *testing.T) {
	_, err := Run(context.Background(), stuck{}, &Input{Limits: Limits{Timeout: 50 * time.Millisecond}})
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("stuck parser: err = %v, want ErrTimeout", err)
	}
	if _, err := Run(context.Background(), panics{}, &Input{}); !errors.Is(err, ErrMalformed) {
		t.Errorf("panicking parser: err = %v, want ErrMalformed", err)
	}
	if _, err := Run(context.Background(), verbose{}, &Input{Limits: Limits{MaxText: 10}}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too much text: err = %v, want ErrTooLarge", err)
	}
}

func TestBuilderPartsAndLimit(t *testing.T) {
	b := NewBuilder(20)
	b.Part("a", 1, "text")
	b.Line("x\r\ny")
	b.Part("empty", 2, "text")
	b.Part("b", 3, "text")
	b.Line("z\x00")
	b.Line("this line does not fit")
	text, parts := b.Text()
	if text != "x\ny\nz \n" || !b.Over() {
		t.Errorf("text = %q, over = %v", text, b.Over())
	}
	if len(parts) != 2 || parts[0].Line != 0 || parts[1].Line != 2 || parts[1].Section != "b" || parts[1].Page != 3 {
		t.Errorf("parts = %+v", parts)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("caf\xe9"))
	f.Add([]byte("\xff\xfeh\x00"))
	f.Add([]byte("\x93\x8c\x8b\x9e"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, _, err := Text(raw)
		if err == nil && !isNormal(s) {
			t.Fatalf("Text(%q) = %q: not normalized", raw, s)
		}
	})
}
