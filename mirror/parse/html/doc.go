// Package html extracts the readable text of an HTML page: its title, the
// headings as markdown headings (so the chunker keeps them as sections),
// paragraphs, list items, table rows and preformatted blocks. Scripts,
// styles, forms and navigation chrome (nav, aside, footer, a header outside
// the main content, ARIA navigation/banner/contentinfo roles, hidden
// elements) are dropped; when the page marks its content with <main> or
// <article>, only that content is kept.
//
// The encoding comes from a BOM or a <meta charset> (x/net/html/charset);
// without either, parse.Decode guesses it.
//
// This is a plain walk of golang.org/x/net/html. A readability library
// (go-readability) scores DOM nodes to find the article; on the pages this
// package is tested with, the landmark elements above find the same text,
// and a plain walk keeps headings and lists that readability flattens.
package html
