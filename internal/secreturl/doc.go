// Package secreturl keeps the secrets people put in URLs (user-info such
// as http://user:sk-...@host, and parameters such as ?api_key=) out of
// everything autorag shows or stores, and keeps credentials from following
// a redirect to another origin.
//
// Redact is the one function every place that prints or stores a URL
// goes through: `autorag config`, --explain, error messages, the names
// that go into cache keys. CheckRedirect is the redirect policy of every
// HTTP client that sends a key.
//
// It must never import engine.
package secreturl
