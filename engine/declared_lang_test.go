package engine

import (
	"slices"
	"testing"
)

// declaredText is a Spanish page of mostly English words: detection calls
// it English. Only the Spanish analysis makes "configuran" meet the
// query's "configurar" (both stem to configur).
const declaredText = "The collector has receivers, processors and exporters for the traces of the service, " +
	"and the configuration of all of them is in one file. Los receptores se configuran en el archivo.\n"

// TestDeclaredLanguageBeatsDetection: a page that declares its language
// (a localized docs folder, frontmatter lang, <html lang>) is analyzed in
// it; the same page without a declaration is analyzed as detected.
func TestDeclaredLanguageBeatsDetection(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		// Headings differ: identical passages would be collapsed into one result.
		h.write("content/es/docs/setup.md", "# Setup\n\n"+declaredText)
		h.write("notes/setup.md", "---\nlang: es\n---\n# Notes\n\n"+declaredText)
		h.write("plain/setup.md", "# Plain\n\n"+declaredText)
		h.write("site/setup.html", `<html lang="es-MX"><body><h1>Página</h1><p>`+declaredText+`</p></body></html>`)
		h.refresh(RefreshOptions{})
		got := sorted(h.query("configurar", ModeBM25))
		if want := []string{"content/es/docs/setup.md", "notes/setup.md", "site/setup.html"}; !slices.Equal(got, want) {
			t.Errorf("bm25 configurar: %v, want %v", got, want)
		}
	})
}
