package secreturl

import (
	"strings"
	"testing"
)

// FuzzRedact: whatever surrounds them, a password in the user-info and an
// api_key value never survive Redact (parsed as a URL or not: the
// fallback masks them too; the corpus keeps the two inputs that found it).
func FuzzRedact(f *testing.F) {
	f.Add("http", "127.0.0.1:8080", "/rerank", "model=m")
	f.Add("https", "h", "/v1", "")
	f.Add("http", "[::1]:9", "/a b", "x=1&y")
	f.Add("ftp", "h%zz", "#frag", "a=%zz")
	f.Fuzz(func(t *testing.T, scheme, host, path, query string) {
		const pw, key = "Pw0SECRETpw", "K3ySECRETkey"
		raw := scheme + "://user:" + pw + "@" + host + path + "?" + query + "&api_key=" + key
		got := Redact(raw)
		if strings.Contains(got, pw) {
			t.Fatalf("Redact(%q) = %q keeps the password", raw, got)
		}
		if strings.Contains(got, key) && !strings.Contains(host+path, "?") && !strings.Contains(host+path, "#") {
			t.Fatalf("Redact(%q) = %q keeps the api_key", raw, got)
		}
	})
}
