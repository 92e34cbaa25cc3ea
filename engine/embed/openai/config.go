package openai

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/autorag/autorag/internal/secreturl"
)

// Defaults applied by New (and ConfigFromEnv) to zero fields.
const (
	DefaultBaseURL        = "https://api.openai.com/v1"
	DefaultModel          = "text-embedding-3-small"
	DefaultBatchSize      = 64
	DefaultMaxBatchTokens = 100000
	DefaultConcurrency    = 4
	DefaultTimeout        = 60 * time.Second
	DefaultMaxAttempts    = 5
	DefaultMaxBackoff     = 30 * time.Second

	// DefaultMaxInputTokens is the per-input budget, in estimated tokens
	// (bytes/4), for OpenAI's models (their limit is 8191 tokens); an
	// input above it is split and its pieces' vectors averaged.
	DefaultMaxInputTokens = 8191
	// DefaultOtherMaxInputTokens is the per-input budget for every other
	// model: local models often take 512 tokens (BERT-style bge, MiniLM,
	// e5), and servers such as vLLM reject longer inputs.
	DefaultOtherMaxInputTokens = 512
)

// Environment variables read by ConfigFromEnv.
const (
	EnvBaseURL     = "OPENAI_BASE_URL"
	EnvAPIKey      = "OPENAI_API_KEY"
	EnvModel       = "OPENAI_EMBEDDING_MODEL"
	EnvDimensions  = "OPENAI_EMBEDDING_DIMENSIONS"
	EnvBatchSize   = "OPENAI_EMBEDDING_BATCH_SIZE"
	EnvConcurrency = "OPENAI_EMBEDDING_CONCURRENCY"
	EnvTimeout     = "OPENAI_EMBEDDING_TIMEOUT"
	EnvMaxTokens   = "OPENAI_EMBEDDING_MAX_TOKENS"
)

// Config configures an Embedder. Zero fields take the defaults above.
type Config struct {
	BaseURL        string        // OPENAI_BASE_URL; default DefaultBaseURL; a trailing slash is fine
	APIKey         string        // OPENAI_API_KEY; may be empty for local servers (Ollama etc.)
	Model          string        // OPENAI_EMBEDDING_MODEL; default DefaultModel
	Dimensions     int           // OPENAI_EMBEDDING_DIMENSIONS; 0 = the known size of an OpenAI model, else learned from the first reply
	MaxInputTokens int           // OPENAI_EMBEDDING_MAX_TOKENS; per-input budget in estimated tokens
	BatchSize      int           // OPENAI_EMBEDDING_BATCH_SIZE; inputs per request
	MaxBatchTokens int           // estimated tokens (ceil(bytes/4)) per request
	Concurrency    int           // OPENAI_EMBEDDING_CONCURRENCY; requests in flight
	Timeout        time.Duration // OPENAI_EMBEDDING_TIMEOUT; per request attempt
	MaxAttempts    int           // attempts per request, the first included
	MaxBackoff     time.Duration // cap on any wait between attempts, Retry-After included
	// Progress, if set, is called after each request completes with the
	// number of texts embedded so far and the total number of texts. Calls
	// are serialized and done only grows.
	Progress func(done, total int)
}

// knownDims holds the native vector size of OpenAI's embedding models.
func knownDims(model string) int {
	switch model {
	case "text-embedding-3-small", "text-embedding-ada-002":
		return 1536
	case "text-embedding-3-large":
		return 3072
	}
	return 0
}

// acceptsDimensions reports whether the model takes the "dimensions"
// request field (OpenAI's text-embedding-3 family).
func acceptsDimensions(model string) bool {
	return strings.HasPrefix(model, "text-embedding-3-")
}

// String describes the configuration with the API key redacted, so that a
// Config printed with %v or %+v never shows the key.
func (c Config) String() string {
	key := "none"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("openai.Config{BaseURL:%s APIKey:%s Model:%s Dimensions:%d MaxInputTokens:%d BatchSize:%d MaxBatchTokens:%d Concurrency:%d Timeout:%s MaxAttempts:%d MaxBackoff:%s}",
		redactURL(c.BaseURL), key, c.Model, c.Dimensions, c.MaxInputTokens, c.BatchSize, c.MaxBatchTokens,
		c.Concurrency, c.Timeout, c.MaxAttempts, c.MaxBackoff)
}

// GoString is String, so that %#v does not show the key either.
func (c Config) GoString() string { return c.String() }

// ConfigFromEnv reads the OPENAI_* variables through getenv, applies the
// defaults and validates the result. Errors name the variable at fault and
// never contain the API key.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		BaseURL: strings.TrimSpace(getenv(EnvBaseURL)),
		APIKey:  strings.TrimSpace(getenv(EnvAPIKey)),
		Model:   strings.TrimSpace(getenv(EnvModel)),
	}
	var errs []error
	for _, f := range []struct {
		name string
		dst  *int
	}{
		{EnvDimensions, &cfg.Dimensions},
		{EnvBatchSize, &cfg.BatchSize},
		{EnvConcurrency, &cfg.Concurrency},
		{EnvMaxTokens, &cfg.MaxInputTokens},
	} {
		n, err := envInt(getenv, f.name)
		errs = append(errs, err)
		*f.dst = n
	}
	d, err := envDuration(getenv, EnvTimeout)
	errs = append(errs, err)
	cfg.Timeout = d
	if err := errors.Join(errs...); err != nil {
		return Config{}, fmt.Errorf("openai embedder: %w", err)
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// envInt parses a positive integer variable; empty means 0 (the default).
func envInt(getenv func(string) string, name string) (int, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive integer", name, v)
	}
	return n, nil
}

// envDuration parses a Go duration or a number of seconds; empty means 0.
func envDuration(getenv func(string) string, name string) (time.Duration, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive duration such as 90s", name, v)
	}
	return d, nil
}

// withDefaults fills zero fields.
func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.Model == "" {
		c.Model = DefaultModel
	}
	if c.Dimensions == 0 {
		c.Dimensions = knownDims(c.Model)
	}
	if c.MaxInputTokens == 0 {
		c.MaxInputTokens = DefaultOtherMaxInputTokens
		if knownDims(c.Model) > 0 {
			c.MaxInputTokens = DefaultMaxInputTokens
		}
	}
	setDefault(&c.BatchSize, DefaultBatchSize)
	setDefault(&c.MaxBatchTokens, DefaultMaxBatchTokens)
	setDefault(&c.Concurrency, DefaultConcurrency)
	setDefault(&c.MaxAttempts, DefaultMaxAttempts)
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	return c
}

func setDefault(p *int, def int) {
	if *p == 0 {
		*p = def
	}
}

// validate checks a defaulted Config. It never prints the key.
func (c Config) validate() error {
	var errs []error
	if err := validateBaseURL(c.BaseURL); err != nil {
		errs = append(errs, err)
	}
	if strings.ContainsFunc(c.APIKey, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) {
		errs = append(errs, fmt.Errorf("%s contains whitespace or control characters", EnvAPIKey))
	}
	if c.Dimensions < 0 {
		errs = append(errs, fmt.Errorf("dimensions (%s) must be positive", EnvDimensions))
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"batch size (" + EnvBatchSize + ")", int64(c.BatchSize)},
		{"max batch tokens", int64(c.MaxBatchTokens)},
		{"max input tokens (" + EnvMaxTokens + ")", int64(c.MaxInputTokens)},
		{"concurrency (" + EnvConcurrency + ")", int64(c.Concurrency)},
		{"max attempts", int64(c.MaxAttempts)},
		{"timeout (" + EnvTimeout + ")", int64(c.Timeout)},
		{"max backoff", int64(c.MaxBackoff)},
	} {
		if f.v < 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", f.name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("openai embedder: %w", err)
	}
	return nil
}

func validateBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%s is not a valid URL", EnvBaseURL)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s=%q: want an http or https URL such as %s", EnvBaseURL, secreturl.Redact(raw), DefaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%s: a query or fragment is not supported", EnvBaseURL)
	}
	return nil
}

// redactURL hides the secrets written in a URL.
func redactURL(raw string) string { return secreturl.Redact(raw) }
