package rerank

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestURLSecretsStayHidden: a password in the URL's user-info and an
// ?api_key= parameter appear in no name (what cache keys and --explain
// use) and no error.
func TestURLSecretsStayHidden(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, raw := range []string{
		"http://user:sk-userinfo@" + host + "/rerank",
		srv.URL + "/rerank?api_key=sk-param",
		"http://user:sk-userinfo@127.0.0.1:1/rerank?api_key=sk-param", // refused: a *url.Error
		"http://user:sk-userinfo@" + host + "/rerank?format=%zz",      // not a URL
	} {
		c, err := New(Config{URL: raw, Model: "m"})
		var msgs []string
		if err != nil {
			msgs = append(msgs, err.Error())
		} else {
			msgs = append(msgs, c.Name())
			_, err = c.Rerank(context.Background(), "q", []string{"a"})
			if err == nil {
				t.Fatalf("%s: no error", raw)
			}
			msgs = append(msgs, err.Error())
		}
		for _, m := range msgs {
			if strings.Contains(m, "sk-") {
				t.Errorf("%s: a secret is shown: %s", raw, m)
			}
		}
	}
}

// TestRedirectToAnotherOriginDropsTheKey: a 307 to another port is
// followed without the Authorization header.
func TestRedirectToAnotherOriginDropsTheKey(t *testing.T) {
	var got string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		w.Write([]byte(`[{"index":0,"score":1}]`))
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/rerank", http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	c, err := New(Config{URL: first.URL + "/rerank", APIKey: "sk-bearer"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Rerank(context.Background(), "q", []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Errorf("the other origin received Authorization %q", got)
	}
}
