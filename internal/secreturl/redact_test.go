package secreturl

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://user:sk-secret@127.0.0.1:8080/rerank", "http://xxxxx:xxxxx@127.0.0.1:8080/rerank"},
		{"https://ghp_token@example.com/v1", "https://xxxxx@example.com/v1"},
		{"https://h/v1?api_key=sk-1&model=m&X-Api-Key=2", "https://h/v1?api_key=xxxxx&model=m&X-Api-Key=xxxxx"},
		{"https://h/cb?b=1&access_token=abc&a=2", "https://h/cb?b=1&access_token=xxxxx&a=2"},
		{"https://h/x#access_token=abc&state=1", "https://h/x#access_token=xxxxx&state=1"},
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"http://127.0.0.1:9/rerank?q=a%20b", "http://127.0.0.1:9/rerank?q=a%20b"},
		{"http://u:p@host:bad port/", "http://xxxxx@host:bad port/"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestErrorRedactsURLError(t *testing.T) {
	inner := &url.Error{Op: "Post", URL: "http://h/x?api_key=sk-1", Err: errors.New("refused")}
	for _, err := range []error{inner, fmt.Errorf("rerank: %w", &url.Error{Op: "Post", URL: "http://h/x?api_key=sk-1", Err: errors.New("refused")})} {
		got := Error(err).Error()
		if strings.Contains(got, "sk-1") || !strings.Contains(got, "refused") {
			t.Errorf("Error(%v) = %s", err, got)
		}
	}
	if Error(nil) != nil {
		t.Error("nil")
	}
}

// TestCheckRedirectDropsCredentialsAcrossOrigins: a 307 to another port
// of the same host gets no Authorization; one on the same origin does.
func TestCheckRedirectDropsCredentialsAcrossOrigins(t *testing.T) {
	got := map[string]string{}
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got[r.URL.Path] = r.Header.Get("Authorization")
	}))
	defer elsewhere.Close()
	var first *httptest.Server
	first = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, elsewhere.URL+"/landed", http.StatusTemporaryRedirect)
		case "/here":
			http.Redirect(w, r, first.URL+"/same", http.StatusTemporaryRedirect)
		default:
			got[r.URL.Path] = r.Header.Get("Authorization")
		}
	}))
	defer first.Close()
	c := &http.Client{CheckRedirect: CheckRedirect}
	for _, p := range []string{"/away", "/here"} {
		req, _ := http.NewRequest(http.MethodPost, first.URL+p, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer sk-secret")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got["/landed"] != "" {
		t.Errorf("another origin received %q", got["/landed"])
	}
	if got["/same"] != "Bearer sk-secret" {
		t.Errorf("the same origin received %q", got["/same"])
	}
}
