package openai

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// failure is how the fake server fails one request.
type failure func(w http.ResponseWriter, r *http.Request)

// failThenOK answers the first len(fail) requests with fail[i] and the rest
// with a correct reply.
func failThenOK(fail ...failure) func(http.ResponseWriter, *http.Request, call) {
	return func(w http.ResponseWriter, r *http.Request, c call) {
		if c.n < len(fail) {
			fail[c.n](w, r)
			return
		}
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	}
}

// status replies with an OpenAI-style error.
func status(code int, retryAfter string) failure {
	return func(w http.ResponseWriter, _ *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		writeAPIError(w, code, fmt.Sprintf("status %d from the fake", code))
	}
}

// hang never answers: the client's timeout ends the request.
func hang(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// hangUp closes the connection without a reply.
func hangUp(t *testing.T) failure {
	return func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		conn.Close()
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		want       time.Duration
	}{
		{"seconds", "2", 2 * time.Second},
		{"HTTP-date", fixedNow.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second},
		{"capped at MaxBackoff", "120", 30 * time.Second},
		{"HTTP-date capped", fixedNow.Add(time.Hour).Format(http.TimeFormat), 30 * time.Second},
		{"absent: backoff", "", baseBackoff},
		{"invalid: backoff", "soon", baseBackoff},
		{"past date: backoff", fixedNow.Add(-time.Minute).Format(http.TimeFormat), baseBackoff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeServer(t, failThenOK(status(http.StatusTooManyRequests, tt.retryAfter)))
			e, sl := newTestEmbedder(t, srv.URL, nil)
			in := []string{"a", "b"}
			got, err := e.Embed(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkVectors(t, in, got, testDims)
			if diff := cmp.Diff([]time.Duration{tt.want}, sl.Durations()); diff != "" {
				t.Errorf("sleeps (-want +got):\n%s", diff)
			}
			if n := len(srv.Calls()); n != 2 {
				t.Errorf("server saw %d requests, want 2", n)
			}
		})
	}
}

func TestServerErrorsRetriedWithBackoff(t *testing.T) {
	srv := newFakeServer(t, failThenOK(
		status(http.StatusInternalServerError, ""),
		func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
		},
		status(http.StatusServiceUnavailable, ""),
		status(http.StatusRequestTimeout, ""),
	))
	e, sl := newTestEmbedder(t, srv.URL, func(c *Config) { c.MaxBackoff = 3 * time.Second })
	in := []string{"a"}
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, in, got, testDims)
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 3 * time.Second}
	if diff := cmp.Diff(want, sl.Durations()); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
}

func TestRetriesExhausted(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		writeAPIError(w, http.StatusInternalServerError, "the fake is down")
	})
	e, sl := newTestEmbedder(t, srv.URL, func(c *Config) { c.MaxAttempts = 3 })
	got, err := e.Embed(t.Context(), []string{"a"})
	if err == nil || got != nil {
		t.Fatalf("Embed = %v, %v; want an error", got, err)
	}
	for _, want := range []string{"gave up after 3 attempts", "HTTP 500 Internal Server Error", "the fake is down"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to contain %q", err, want)
		}
	}
	if n := len(srv.Calls()); n != 3 {
		t.Errorf("server saw %d requests, want 3", n)
	}
	if n := len(sl.Durations()); n != 2 {
		t.Errorf("slept %d times, want 2", n)
	}
}

// TestTransportFailuresRetried: a request that times out, or whose
// connection closes without a reply, is retried after a backoff.
func TestTransportFailuresRetried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fail    failure
		timeout time.Duration
	}{
		// The timeout bounds the retried, answered request too: under the
		// race detector on a loaded machine 50 ms was not always enough.
		{"timeout", hang, 2 * time.Second},
		{"connection closed", hangUp(t), 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newFakeServer(t, failThenOK(tc.fail))
			e, sl := newTestEmbedder(t, srv.URL, func(c *Config) { c.Timeout = tc.timeout })
			in := []string{"a"}
			got, err := e.Embed(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkVectors(t, in, got, testDims)
			if diff := cmp.Diff([]time.Duration{baseBackoff}, sl.Durations()); diff != "" {
				t.Errorf("sleeps (-want +got):\n%s", diff)
			}
			if n := len(srv.Calls()); n != 2 {
				t.Errorf("server saw %d requests, want 2", n)
			}
		})
	}
}

func TestTimeoutExhaustedNamesTimeout(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, _ call) { hang(w, r) })
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.Timeout = 20 * time.Millisecond; c.MaxAttempts = 2 })
	_, err := e.Embed(t.Context(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "timed out after 20ms") {
		t.Errorf("err = %v, want a timeout", err)
	}
}

func TestClientErrorsFailAtOnce(t *testing.T) {
	for _, code := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotFound, http.StatusUnprocessableEntity} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			srv := newFakeServer(t, failThenOK(status(code, "1")))
			e, sl := newTestEmbedder(t, srv.URL, nil)
			got, err := e.Embed(t.Context(), []string{"a"})
			if err == nil || got != nil {
				t.Fatalf("Embed = %v, %v; want an error", got, err)
			}
			want := fmt.Sprintf("HTTP %d %s: status %d from the fake", code, http.StatusText(code), code)
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %q, want it to contain %q", err, want)
			}
			if n := len(srv.Calls()); n != 1 {
				t.Errorf("server saw %d requests, want 1", n)
			}
			if len(sl.Durations()) != 0 {
				t.Errorf("slept %v", sl.Durations())
			}
		})
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	replies := map[string]func(w http.ResponseWriter){
		"OpenAI error echoes key": func(w http.ResponseWriter) {
			writeAPIError(w, http.StatusUnauthorized, "Incorrect API key provided: "+testKey+".")
		},
		"raw body echoes key": func(w http.ResponseWriter) {
			http.Error(w, "bad auth Bearer "+testKey, http.StatusForbidden)
		},
		"retries exhausted": func(w http.ResponseWriter) {
			writeAPIError(w, http.StatusServiceUnavailable, "overloaded for key "+testKey)
		},
		"success body echoes key": func(w http.ResponseWriter) {
			fmt.Fprintf(w, `{"object":"list","data":[{"index":0,"embedding":["%s"]}]}`, testKey)
		},
	}
	for name, reply := range replies {
		t.Run(name, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) { reply(w) })
			e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.MaxAttempts = 2 })
			_, err := e.Embed(t.Context(), []string{"a"})
			if err == nil {
				t.Fatal("Embed succeeded, want an error")
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error contains the API key: %q", err)
			}
			if fmt.Sprintf("%+v %#v", e.cfg, e.cfg) != e.cfg.String()+" "+e.cfg.String() || strings.Contains(e.cfg.String(), testKey) {
				t.Errorf("Config formatting shows the key: %+v", e.cfg)
			}
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		srv := newFakeServer(t, nil)
		url := srv.URL
		srv.Close()
		e, _ := newTestEmbedder(t, url+"/"+testKey, func(c *Config) { c.MaxAttempts = 2 })
		_, err := e.Embed(t.Context(), []string{"a"})
		if err == nil || !strings.Contains(err.Error(), "connection failed") {
			t.Fatalf("err = %v, want a connection failure", err)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("error contains the API key: %q", err)
		}
	})
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"-5", 0},
		{" 12 ", 12 * time.Second},
		{"99999999999999", (1 << 31) * time.Second},
		{"1.5", 0},
		{"tomorrow", 0},
		{fixedNow.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{fixedNow.Add(-time.Second).Format(http.TimeFormat), 0},
		{"Wednesday, 25-Nov-26 12:00:05 GMT", 5 * time.Second}, // RFC 850
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, fixedNow); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestBackoffCeiling(t *testing.T) {
	var got []time.Duration
	for attempt := 1; attempt <= 8; attempt++ {
		got = append(got, backoffCeiling(attempt, 10*time.Second))
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second,
		8 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ceilings (-want +got):\n%s", diff)
	}
	if got := backoffCeiling(1000, time.Minute); got != time.Minute {
		t.Errorf("backoffCeiling(1000) = %v, want the cap", got)
	}
}

func TestFullJitterWithinCeiling(t *testing.T) {
	if got := fullJitter(0); got != 0 {
		t.Errorf("fullJitter(0) = %v", got)
	}
	seen := map[bool]bool{}
	for range 1000 {
		d := fullJitter(time.Second)
		if d < 0 || d > time.Second {
			t.Fatalf("fullJitter(1s) = %v, outside [0, 1s]", d)
		}
		seen[d < 500*time.Millisecond] = true
	}
	if len(seen) != 2 {
		t.Errorf("1000 draws all fell in one half of [0, 1s]")
	}
}

func TestSleepCtx(t *testing.T) {
	if err := sleepCtx(t.Context(), time.Nanosecond); err != nil {
		t.Errorf("sleepCtx = %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := sleepCtx(ctx, time.Hour); err != context.Canceled {
		t.Errorf("sleepCtx on a cancelled context = %v", err)
	}
	if err := sleepCtx(ctx, 0); err != context.Canceled {
		t.Errorf("sleepCtx(0) on a cancelled context = %v", err)
	}
}

func TestNormalize(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	tests := []struct {
		in   []float32
		want string
	}{
		{[]float32{1, nan, 0}, "value 1 is not finite"},
		{[]float32{inf, 1, 0}, "value 0 is not finite"},
		{[]float32{1, 1, -inf}, "value 2 is not finite"},
		{[]float32{0, 0, 0}, "zero vector"},
		{[]float32{1, 2}, "2 dimensions, want 3"},
	}
	for _, tt := range tests {
		if _, err := normalize(tt.in, 3); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("normalize(%v) = %v, want %q", tt.in, err, tt.want)
		}
	}
	got, err := normalize([]float32{3, 0, 4}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float32{0.6, 0, 0.8}, got); diff != "" {
		t.Errorf("normalize (-want +got):\n%s", diff)
	}
	big := []float32{math.MaxFloat32, math.MaxFloat32, 0}
	if got, err := normalize(big, 3); err != nil || math.Abs(float64(got[0])-math.Sqrt2/2) > 1e-6 {
		t.Errorf("normalize of huge values = %v, %v", got, err)
	}
}
