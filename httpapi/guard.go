package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/autorag/autorag/envelope"
)

// ErrNeedToken refuses a non-loopback bind without a token.
var ErrNeedToken = errors.New("binding a non-loopback address needs --token (bearer token)")

// CheckBind reports whether addr (host:port) binds loopback only, and
// refuses any other address without a token. An empty host (all
// interfaces) is not loopback; a name is resolved and is loopback only
// when every address it names is.
func CheckBind(addr, token string) (loopback bool, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: %w", addr, err)
	}
	loopback = isLoopbackHost(host)
	if !loopback && token == "" {
		return false, fmt.Errorf("address %q: %w", addr, ErrNeedToken)
	}
	return loopback, nil
}

func isLoopbackHost(host string) bool {
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// guard wraps h: a request carrying an Origin other than the server's own
// is refused (a web page's cross-site request, whatever it carries), and a
// POST must say its body is application/json, an empty body included (a
// page can send a "simple" cross-origin POST of text/plain with no
// preflight). Then, with a token, every request must carry it as a bearer
// token; without one, the Host header must name loopback.
func guard(h http.Handler, token string) http.Handler {
	return sameOrigin(authorized(jsonPosts(h), token))
}

func authorized(h http.Handler, token string) http.Handler {
	if token == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !loopbackHostHeader(r.Host) {
				writeError(w, r, http.StatusForbidden, "forbidden", errors.New("host "+r.Host+" is not loopback (start the server with --token to serve other names)"))
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		// Hashing first makes the comparison constant-time in the length
		// of the token too.
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="autorag"`)
			writeError(w, r, http.StatusUnauthorized, "unauthorized", errors.New("missing or wrong bearer token"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// sameOrigin refuses cross-origin requests.
func sameOrigin(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Values("Origin"); len(o) > 0 && !ownOrigin(o, r.Host) {
			writeError(w, r, http.StatusForbidden, "forbidden", fmt.Errorf("origin %q is not this server's (cross-origin requests are refused)", strings.Join(o, ", ")))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// jsonPosts refuses a POST whose Content-Type is not application/json.
func jsonPosts(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
				writeError(w, r, http.StatusBadRequest, envelope.CodeUsage, errors.New("a POST must have Content-Type: application/json (an empty body too)"))
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// ownOrigin reports whether the Origin header (one value) names this
// server: http or https with the Host the request was sent to. "null"
// (sandboxed frames, file: pages) is never the server's own.
func ownOrigin(values []string, host string) bool {
	if len(values) != 1 {
		return false
	}
	u, err := url.Parse(values[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

// loopbackHostHeader reports whether a Host header names a loopback host.
func loopbackHostHeader(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
