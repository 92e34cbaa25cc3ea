package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/autorag/autorag/internal/secreturl"
)

const (
	// baseBackoff is the ceiling of the first backoff; it doubles per attempt.
	baseBackoff = 500 * time.Millisecond
	// maxReplyBytes bounds a reply body read into memory (64 inputs of 3072
	// floats in JSON take about 5 MiB).
	maxReplyBytes = 256 << 20
	// maxMessageBytes bounds a server message quoted in an error.
	maxMessageBytes = 512
)

// exchange records what the HTTP layer saw during one attempt. go-openai's
// errors carry the status but not the headers, so the HTTP client given to
// go-openai fills one of these, found through the request's context.
type exchange struct {
	status     int
	retryAfter string
	transport  error // no reply, or its body could not be read
}

type exchangeKey struct{}

// recordingDoer is the HTTP client handed to go-openai. It records the
// status and Retry-After of each reply and reads the body in full, so that
// a connection broken mid-body is a transport error (retried) and not a
// malformed reply (not retried).
type recordingDoer struct {
	client *http.Client
}

func (d *recordingDoer) Do(req *http.Request) (*http.Response, error) {
	x, ok := req.Context().Value(exchangeKey{}).(*exchange)
	if !ok {
		x = &exchange{}
	}
	resp, err := d.client.Do(req)
	if err != nil {
		x.transport = err
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	resp.Body.Close()
	if err != nil {
		x.transport = fmt.Errorf("read reply: %w", err)
		return nil, x.transport
	}
	x.status = resp.StatusCode
	x.retryAfter = resp.Header.Get("Retry-After")
	if len(body) > maxReplyBytes {
		return nil, fmt.Errorf("reply larger than %d bytes", maxReplyBytes)
	}
	if resp.StatusCode/100 == 2 {
		if body, err = floatReply(body); err != nil {
			return nil, fmt.Errorf("malformed reply: %w", err)
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// attemptError is one failed attempt. retry says whether another attempt
// may succeed; after is the server's Retry-After, 0 when it gave none.
type attemptError struct {
	msg   string
	retry bool
	after time.Duration
}

func (e *attemptError) Error() string { return e.msg }

// short is the message up to the server's explanation, for a progress
// line ("HTTP 429 Too Many Requests").
func (e *attemptError) short() string {
	s, _, _ := strings.Cut(e.msg, ": ")
	return s
}

// classify turns a failed CreateEmbeddings call into an attemptError,
// or returns the context's error when ctx (the caller's, not the
// attempt's) is done. Every message passes through redact.
func (e *Embedder) classify(ctx, attemptCtx context.Context, x *exchange, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	switch {
	case x.transport != nil && errors.Is(attemptCtx.Err(), context.DeadlineExceeded):
		return &attemptError{msg: fmt.Sprintf("request timed out after %s", e.cfg.Timeout), retry: true}
	case x.transport != nil:
		return &attemptError{msg: "connection failed: " + e.redact(secreturl.Error(x.transport).Error()) +
			" (is the server at " + EnvBaseURL + " running and reachable?)", retry: true}
	case x.status >= 200 && x.status < 300:
		return &attemptError{msg: "malformed reply: " + e.redact(err.Error())}
	case x.status != 0:
		return e.statusError(x, err)
	}
	return &attemptError{msg: e.redact(err.Error())}
}

// statusError handles a non-2xx reply: 429 (honouring Retry-After), 408 and
// 5xx are retried, every other status fails at once.
func (e *Embedder) statusError(x *exchange, err error) error {
	ae := &attemptError{msg: fmt.Sprintf("HTTP %d %s", x.status, http.StatusText(x.status))}
	if m := e.redact(serverMessage(err)); m != "" {
		ae.msg += ": " + m
	}
	switch {
	case x.status == http.StatusTooManyRequests:
		ae.retry = true
		ae.after = parseRetryAfter(x.retryAfter, e.now())
	case x.status == http.StatusRequestTimeout, x.status >= 500:
		ae.retry = true
	default:
		ae.msg += statusHint(x.status, ae.msg)
	}
	return ae
}

// statusHint says what to change after a reply that retrying cannot fix.
func statusHint(status int, msg string) string {
	low := strings.ToLower(msg)
	switch {
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return " (check " + EnvAPIKey + ")"
	case status == http.StatusNotFound:
		return " (check " + EnvBaseURL + ", which usually ends in /v1, and " + EnvModel + ")"
	case strings.Contains(low, "context length"), strings.Contains(low, "too long"),
		strings.Contains(low, "maximum"), strings.Contains(low, "exceeds"):
		return " (lower " + EnvMaxTokens + " below the model's context length)"
	case strings.Contains(low, "model"):
		return " (check " + EnvModel + ")"
	}
	return ""
}

// serverMessage extracts the server's explanation from a go-openai error:
// the "error.message" of an OpenAI-style body, else the raw body.
func serverMessage(err error) string {
	var apiErr *goopenai.APIError
	if errors.As(err, &apiErr) {
		return clip(apiErr.Message)
	}
	var reqErr *goopenai.RequestError
	if errors.As(err, &reqErr) {
		return clip(string(reqErr.Body))
	}
	return ""
}

// clip trims a message and bounds its length.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > maxMessageBytes {
		s = strings.ToValidUTF8(s[:maxMessageBytes], "") + "..."
	}
	return s
}

// redact removes the API key from a message. Servers do echo keys back
// ("Incorrect API key provided: ...").
func (e *Embedder) redact(s string) string {
	if base := strings.TrimRight(e.cfg.BaseURL, "/"); base != "" {
		s = strings.ReplaceAll(s, base, secreturl.Redact(base))
	}
	if e.cfg.APIKey == "" {
		return s
	}
	return strings.ReplaceAll(s, e.cfg.APIKey, "[redacted]")
}

// parseRetryAfter reads a Retry-After value, delta-seconds or HTTP-date.
// It returns 0 when the value is absent, invalid or not in the future.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, 1<<31)) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	return max(t.Sub(now), 0)
}

// backoffCeiling is the upper bound of the wait after the given failed
// attempt (1-based): base, doubling, capped at maxBackoff.
func backoffCeiling(attempt int, maxBackoff time.Duration) time.Duration {
	d := baseBackoff
	for i := 1; i < attempt && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// delay is the wait before the next attempt: the server's Retry-After
// when it gave one, else full jitter over the backoff ceiling.
func (e *Embedder) delay(attempt int, ae *attemptError) time.Duration {
	if ae.after > 0 {
		return min(ae.after, e.cfg.MaxBackoff)
	}
	return e.jitter(backoffCeiling(attempt, e.cfg.MaxBackoff))
}

// fullJitter draws uniformly from [0, d].
func fullJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}

// sleepCtx waits for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
