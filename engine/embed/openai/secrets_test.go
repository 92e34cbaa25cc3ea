package openai

import (
	"net/http"
	"strings"
	"testing"
)

// TestRedirectToAnotherOriginDropsTheKey: a 307 from the provider to
// another port is followed without the Authorization header.
func TestRedirectToAnotherOriginDropsTheKey(t *testing.T) {
	other := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	first := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	e, _ := newTestEmbedder(t, first.URL+"/v1", nil)
	if _, err := e.Embed(t.Context(), texts(1)); err != nil {
		t.Fatal(err)
	}
	for _, c := range other.Calls() {
		if c.auth != "" {
			t.Errorf("the other origin received Authorization %q", c.auth)
		}
	}
	if len(other.Calls()) == 0 {
		t.Error("the redirect was not followed")
	}
}

// TestURLSecretsNotInErrors: user-info in OPENAI_BASE_URL (a token as the
// user name, or a password) is not in a connection error nor String().
func TestURLSecretsNotInErrors(t *testing.T) {
	for _, base := range []string{"http://sk-usertoken@127.0.0.1:1/v1", "http://u:sk-password@127.0.0.1:1/v1"} {
		e, _ := newTestEmbedder(t, base, func(c *Config) { c.MaxAttempts = 1 })
		_, err := e.Embed(t.Context(), texts(1))
		if err == nil {
			t.Fatalf("%s: no error", base)
		}
		for _, s := range []string{err.Error(), e.cfg.String()} {
			if strings.Contains(s, "sk-") {
				t.Errorf("%s: a secret is shown: %s", base, s)
			}
		}
	}
}
