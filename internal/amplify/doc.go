// Package amplify builds the amplification inputs: small files that expand
// when parsed (shared strings referenced many times, entity expansion,
// nested tables and multiparts). mirror's TestAmplificationBounded and
// bench/reliability's amplification scenario both parse these same inputs.
//
// It imports only the standard library and must never import autorag's
// packages: it is input, not a parser.
package amplify
