package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func ms(v ...float64) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x * float64(time.Millisecond))
	}
	return out
}

func TestQuantile(t *testing.T) {
	tests := []struct {
		name   string
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"single", ms(7), 0.9, ms(7)[0]},
		{"odd median", ms(1, 2, 3, 4, 5), 0.5, ms(3)[0]},
		{"even median is the mean of the middle two", ms(1, 2, 3, 4), 0.5, ms(2.5)[0]},
		{"p10 interpolates", ms(10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110), 0.1, ms(20)[0]},
		{"p90 interpolates", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.9, ms(9.1)[0]},
		{"q=0 is the minimum", ms(3, 5, 8), 0, ms(3)[0]},
		{"q=1 is the maximum", ms(3, 5, 8), 1, ms(8)[0]},
		{"q above 1 is clamped", ms(3, 5, 8), 1.5, ms(8)[0]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quantile(tt.sorted, tt.q); got != tt.want {
				t.Errorf("quantile(%v, %v) = %v, want %v", tt.sorted, tt.q, got, tt.want)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	walls := ms(50, 10, 40, 20, 30) // unsorted on purpose
	rss := []int64{100, 900, 300, 200, 400}
	samples := make([]sample, len(walls))
	for i := range walls {
		samples[i] = sample{Wall: walls[i], MaxRSSKB: rss[i]}
	}
	got := summarize(samples)
	want := summary{N: 5, Median: ms(30)[0], P10: ms(14)[0], P90: ms(46)[0], PeakRSSKB: 900}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summarize mismatch (-want +got):\n%s", diff)
	}
	if got := summarize(nil); got != (summary{}) {
		t.Errorf("summarize(nil) = %+v, want zero", got)
	}
}

func TestTally(t *testing.T) {
	var tl tally
	for _, k := range []string{"updated", "updated", "rebuilt", "updated"} {
		tl.add(k)
	}
	if got, want := tl.String(), "updated ×3; rebuilt ×1"; got != want {
		t.Errorf("tally = %q, want %q", got, want)
	}
}

func TestCheckEnvelope(t *testing.T) {
	tests := []struct {
		stdout  string
		wantErr bool
		want    string
	}{
		{`{"ok":true,"outcome":"unchanged"}`, false, "unchanged"},
		{`{"ok":true,"outcome":"ok","cached":true,"results":[{},{}]}`, false, "ok, 2 results, cached"},
		{`{"ok":true,"outcome":"ok","cached":false,"results":[]}`, false, "ok, 0 results, not cached"},
		{`{"ok":false,"outcome":"error","error":{"code":"no_index","message":"run refresh"}}`, true, ""},
		{`{"outcome":"ok"}`, true, ""},
		{`refreshed 3 files`, true, ""},
	}
	for _, tt := range tests {
		env, err := checkEnvelope([]byte(tt.stdout))
		if (err != nil) != tt.wantErr {
			t.Errorf("checkEnvelope(%s) error = %v, wantErr %v", tt.stdout, err, tt.wantErr)
			continue
		}
		if err == nil && env.describe() != tt.want {
			t.Errorf("describe(%s) = %q, want %q", tt.stdout, env.describe(), tt.want)
		}
	}
}

func TestFormatting(t *testing.T) {
	tests := []struct{ got, want string }{
		{formatDuration(1234 * time.Microsecond), "1.23 ms"},
		{formatDuration(56780 * time.Microsecond), "56.8 ms"},
		{formatDuration(2500 * time.Millisecond), "2.50 s"},
		{formatRSS(20480), "20.0 MB"},
		{formatRSS(0), "—"},
		{groupDigits(100000), "100,000"},
		{groupDigits(400), "400"},
		{mdEscape("a|b\nc"), `a\|b c`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestHeavyRuns(t *testing.T) {
	for _, tt := range []struct{ runs, files, want int }{
		{15, 400, 15}, {15, 16000, 5}, {15, 100000, 3}, {2, 100000, 2},
	} {
		if got := heavyRuns(tt.runs, tt.files); got != tt.want {
			t.Errorf("heavyRuns(%d, %d) = %d, want %d", tt.runs, tt.files, got, tt.want)
		}
	}
}
