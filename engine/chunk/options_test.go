package chunk

import "testing"

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   Options
		want Options
	}{
		{"zero is the default", Options{}, Options{Size: DefaultSize, Overlap: DefaultOverlap}},
		{"default size keeps explicit overlap", Options{Overlap: 100}, Options{Size: DefaultSize, Overlap: 100}},
		{"negative size", Options{Size: -5}, Options{Size: DefaultSize, Overlap: DefaultOverlap}},
		{"explicit size, zero overlap means none", Options{Size: 1000}, Options{Size: 1000, Overlap: 0}},
		{"negative overlap", Options{Size: 1000, Overlap: -1}, Options{Size: 1000, Overlap: 0}},
		{"default size, negative overlap", Options{Overlap: -1}, Options{Size: DefaultSize, Overlap: 0}},
		{"overlap equal to size", Options{Size: 100, Overlap: 100}, Options{Size: 100, Overlap: 25}},
		{"overlap above size", Options{Size: 100, Overlap: 5000}, Options{Size: 100, Overlap: 25}},
		{"overlap above half", Options{Size: 100, Overlap: 80}, Options{Size: 100, Overlap: 50}},
		{"overlap at half", Options{Size: 100, Overlap: 50}, Options{Size: 100, Overlap: 50}},
		{"size one", Options{Size: 1, Overlap: 1}, Options{Size: 1, Overlap: 0}},
		{"kept", Options{Size: 500, Overlap: 40}, Options{Size: 500, Overlap: 40}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.Normalize()
			if got != tt.want {
				t.Fatalf("%+v.Normalize() = %+v, want %+v", tt.in, got, tt.want)
			}
			if again := got.Normalize(); again != got {
				t.Fatalf("Normalize is not idempotent: %+v then %+v", got, again)
			}
		})
	}
}

func TestOptionsString(t *testing.T) {
	tests := []struct {
		in   Options
		want string
	}{
		{Options{}, "chunk@3 size=2400 overlap=240"},
		{Options{Size: DefaultSize, Overlap: DefaultOverlap}, "chunk@3 size=2400 overlap=240"},
		{Options{Size: 100, Overlap: 500}, "chunk@3 size=100 overlap=25"},
		{Options{Size: 1000}, "chunk@3 size=1000 overlap=0"},
		{Options{Syntax: true}, "chunk@3 size=2400 overlap=240 syntax=tree-sitter"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}
