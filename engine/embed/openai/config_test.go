package openai

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnv(t *testing.T) {
	defaults := Config{
		BaseURL: DefaultBaseURL, Model: DefaultModel, Dimensions: 1536,
		MaxInputTokens: DefaultMaxInputTokens,
		BatchSize:      64, MaxBatchTokens: 100000, Concurrency: 4,
		Timeout: 60 * time.Second, MaxAttempts: 5, MaxBackoff: 30 * time.Second,
	}
	tests := []struct {
		name string
		env  map[string]string
		want func(c *Config)
	}{
		{"empty environment", nil, func(c *Config) {}},
		{"large model", map[string]string{EnvModel: "text-embedding-3-large"}, func(c *Config) {
			c.Model, c.Dimensions = "text-embedding-3-large", 3072
		}},
		{"ada", map[string]string{EnvModel: "text-embedding-ada-002"}, func(c *Config) {
			c.Model = "text-embedding-ada-002"
		}},
		{"ollama", map[string]string{
			EnvBaseURL: "http://localhost:11434/v1/", EnvModel: "nomic-embed-text", EnvDimensions: "768",
			EnvBatchSize: "16", EnvConcurrency: "1", EnvTimeout: "90",
		}, func(c *Config) {
			c.BaseURL, c.Model, c.Dimensions = "http://localhost:11434/v1/", "nomic-embed-text", 768
			c.BatchSize, c.Concurrency, c.Timeout = 16, 1, 90*time.Second
			c.MaxInputTokens = DefaultOtherMaxInputTokens
		}},
		{"zero-config local model", map[string]string{EnvModel: "nomic-embed-text", EnvMaxTokens: "2000"}, func(c *Config) {
			c.Model, c.Dimensions, c.MaxInputTokens = "nomic-embed-text", 0, 2000
		}},
		{"key and spaces trimmed", map[string]string{EnvAPIKey: " sk-abc\n", EnvTimeout: "2m30s", EnvDimensions: " 256 "}, func(c *Config) {
			c.APIKey, c.Timeout, c.Dimensions = "sk-abc", 150*time.Second, 256
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromEnv(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			want := defaults
			tt.want(&want)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Config{}, "Progress")); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigFromEnvErrors(t *testing.T) {
	const key = "sk-very-secret-value"
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"bad token budget", map[string]string{EnvMaxTokens: "lots"}, []string{`OPENAI_EMBEDDING_MAX_TOKENS="lots"`}},
		{"bad integers", map[string]string{EnvDimensions: "abc", EnvBatchSize: "0", EnvConcurrency: "-2"},
			[]string{`OPENAI_EMBEDDING_DIMENSIONS="abc"`, `OPENAI_EMBEDDING_BATCH_SIZE="0"`, `OPENAI_EMBEDDING_CONCURRENCY="-2"`}},
		{"bad timeout", map[string]string{EnvTimeout: "soon"}, []string{`OPENAI_EMBEDDING_TIMEOUT="soon"`}},
		{"not http", map[string]string{EnvBaseURL: "localhost:11434"}, []string{"OPENAI_BASE_URL", "http or https"}},
		{"unparsable URL", map[string]string{EnvBaseURL: "http://[::1" + key}, []string{"OPENAI_BASE_URL is not a valid URL"}},
		{"password in URL", map[string]string{EnvBaseURL: "ftp://user:" + key + "@host/v1"}, []string{"OPENAI_BASE_URL", "xxxxx"}},
		{"query in URL", map[string]string{EnvBaseURL: "https://host/v1?api-key=" + key}, []string{"query or fragment"}},
		{"control character in key", map[string]string{EnvAPIKey: "sk-a\x00b" + key}, []string{"OPENAI_API_KEY contains whitespace or control characters"}},
		{"space inside key", map[string]string{EnvAPIKey: "sk-a " + key}, []string{"OPENAI_API_KEY contains whitespace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string]string{EnvAPIKey: key}
			for k, v := range tt.env {
				m[k] = v
			}
			_, err := ConfigFromEnv(env(m))
			if err == nil {
				t.Fatal("ConfigFromEnv succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("error contains the API key: %q", err)
			}
		})
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"negative dimensions", Config{Dimensions: -1}, "dimensions (OPENAI_EMBEDDING_DIMENSIONS) must be positive"},
		{"negative batch", Config{BatchSize: -1}, "batch size (OPENAI_EMBEDDING_BATCH_SIZE) must be positive"},
		{"negative tokens", Config{MaxBatchTokens: -1}, "max batch tokens must be positive"},
		{"negative timeout", Config{Timeout: -time.Second}, "timeout (OPENAI_EMBEDDING_TIMEOUT) must be positive"},
		{"negative attempts", Config{MaxAttempts: -3}, "max attempts must be positive"},
		{"negative input budget", Config{MaxInputTokens: -1}, "max input tokens (OPENAI_EMBEDDING_MAX_TOKENS) must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	e, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Identity().String(); got != "openai/text-embedding-3-small/1536" {
		t.Errorf("default identity = %s", got)
	}
}

func TestConfigStringHidesKey(t *testing.T) {
	c := Config{APIKey: "sk-hidden", BaseURL: "https://u:pw@example.com/v1"}
	s := c.String()
	for _, secret := range []string{"sk-hidden", "pw@"} {
		if strings.Contains(s, secret) {
			t.Errorf("String() = %q shows %q", s, secret)
		}
	}
	if !strings.Contains(s, "APIKey:set") || !strings.Contains(Config{}.String(), "APIKey:none") {
		t.Errorf("String() = %q, want it to say whether a key is set", s)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		maxTokens int
		want      string
	}{
		{"short", "abc", 1, "abc"},
		{"exact", "abcdefgh", 2, "abcdefgh"},
		{"ascii", "abcdefghij", 2, "abcdefgh"},
		{"rune across the limit", "abcdefg€x", 2, "abcdefg"}, // € is 3 bytes at 7..9
		{"rune ending at the limit", "abcde€xyz", 2, "abcde€"},
		{"invalid UTF-8", strings.Repeat("\x80", 12), 1, "\x80\x80\x80\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := truncate(tt.in, tt.maxTokens); got != tt.want {
				t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.maxTokens, got, tt.want)
			}
		})
	}
	long := strings.Repeat("ü", 20000) // 40000 bytes
	got := truncate(long, DefaultMaxInputTokens)
	if !utf8.ValidString(got) || len(got) > DefaultMaxInputTokens*4 || len(got) < DefaultMaxInputTokens*4-1 {
		t.Errorf("truncate of a long text: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
}

func TestDefaultInputCap(t *testing.T) {
	e, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	in := []string{strings.Repeat("a", 40000), "b"}
	got := e.split(in)
	if len(got.inputs) != 3 || len(got.inputs[0]) != DefaultMaxInputTokens*4 || got.inputs[1] != strings.Repeat("a", 40000-DefaultMaxInputTokens*4) || got.inputs[2] != "b" {
		t.Errorf("split: %d inputs, want the long text in two and b", len(got.inputs))
	}
	if got.split != 1 || got.owner[0] != 0 || got.owner[1] != 0 || got.owner[2] != 1 {
		t.Errorf("split = %d, owners %v; want 1, [0 0 1]", got.split, got.owner)
	}
	if n := e.Batches(in); n != 1 {
		t.Errorf("Batches = %d, want 1", n)
	}
	if n := e.Batches(nil); n != 0 {
		t.Errorf("Batches(nil) = %d, want 0", n)
	}
	other, err := New(Config{Model: "nomic-embed-text"})
	if err != nil {
		t.Fatal(err)
	}
	if other.cfg.MaxInputTokens != DefaultOtherMaxInputTokens {
		t.Errorf("budget of a non-OpenAI model = %d, want %d", other.cfg.MaxInputTokens, DefaultOtherMaxInputTokens)
	}
}
