package secreturl

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces a secret.
const Mask = "xxxxx"

// secretWords are the parts of a query parameter's name that say its value
// is a credential (api_key, access_token, X-Api-Key, sig, password, ...).
var secretWords = []string{"key", "token", "secret", "pass", "pwd", "auth", "sig", "credential", "session", "cookie", "jwt", "bearer"}

// Redact returns raw with its user-info and the values of secret-looking
// query (and fragment) parameters masked; everything else is kept as it
// was written. What does not parse as a URL still loses anything between
// "//" and "@", and the secret-looking values after its "?".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		s := maskUserInfo(raw)
		if i := strings.IndexByte(s, '?'); i >= 0 {
			s = s[:i+1] + redactPairs(s[i+1:])
		}
		return s
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(Mask, Mask)
		} else {
			u.User = url.User(Mask)
		}
	}
	u.RawQuery = redactPairs(u.RawQuery)
	if u.Fragment != "" {
		u.RawFragment = redactPairs(u.EscapedFragment())
		u.Fragment, _ = url.PathUnescape(u.RawFragment)
	}
	// What still looks like user-info (in a fragment, say) goes too.
	return maskUserInfo(u.String())
}

var userInfo = regexp.MustCompile(`//[^/?#\s]*@`)

// maskUserInfo masks every "//...@" of s but the masks themselves.
func maskUserInfo(s string) string {
	return userInfo.ReplaceAllStringFunc(s, func(m string) string {
		if m == "//"+Mask+"@" || m == "//"+Mask+":"+Mask+"@" {
			return m
		}
		return "//" + Mask + "@"
	})
}

// redactPairs masks the values of secret-looking names in an
// a=1&b=2 string, keeping the order and the rest byte for byte.
func redactPairs(q string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if ok && secretName(name) {
			parts[i] = name + "=" + Mask
		}
	}
	return strings.Join(parts, "&")
}

func secretName(escaped string) bool {
	name, err := url.QueryUnescape(escaped)
	if err != nil {
		name = escaped
	}
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// Error returns err with the URL of a *url.Error in its chain redacted
// (net/http masks only a password, not ?api_key=), in its message and in
// the *url.Error itself; errors.Is and errors.As still see the chain.
// Other errors are returned as they are.
func Error(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	raw, r := ue.URL, Redact(ue.URL)
	if r == raw {
		return err
	}
	msg := strings.ReplaceAll(err.Error(), raw, r)
	ue.URL = r
	if ue == err {
		return ue
	}
	return &redacted{msg: msg, err: err}
}

// redacted is an error whose message had a URL redacted.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// sensitiveHeaders are what a request may carry that grants access.
var sensitiveHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Api-Key", "X-Api-Key", "X-Goog-Api-Key"}

// CheckRedirect is an http.Client redirect policy: a redirect to another
// origin (scheme, host and port; net/http compares hosts only, so a 307 to
// another port kept the Authorization header) is followed without any
// credential header; at most 10 redirects.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if origin(req.URL) != origin(via[0].URL) {
		for _, h := range sensitiveHeaders {
			req.Header.Del(h)
		}
	}
	return nil
}

// origin is scheme://host:port with the default port made explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
