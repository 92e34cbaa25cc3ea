package analyze

import (
	"slices"
	"testing"
)

// sameTerms: each pair of words of a language is analyzed to one term.
func TestChainsConflateForms(t *testing.T) {
	for _, c := range []struct{ code, a, b string }{
		{"ar", "بالسواكن", "السواكن"}, // attached prefixes
		{"ar", "المعركة", "معركة"},
		{"ar", "أحمد", "احمد"}, // hamza on alef
		{"el", "πρώτης", "πρώτη"},
		{"el", "ΣΕΙΡΆΣ", "σειρά"}, // capitals, accents, final sigma
		{"hi", "नागरिकों", "नागरिक"},
		{"tr", "Ankara'nın", "Ankara"}, // apostrophe suffixes
		{"tr", "IŞIK", "ışık"},         // dotless i
		{"tr", "İstanbul’da", "istanbul"},
		{"fa", "کتاب\u200cها", "کتاب ها"}, // the zero-width non-joiner separates
		{"ar", "databases", "database"},   // English inside Arabic: Porter
	} {
		a, b := termsOf(c.code, c.a), termsOf(c.code, c.b)
		if len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%s: %q → %q, %q → %q; want the same terms", c.code, c.a, a, c.b, b)
		}
	}
}

func TestChainsDropStopWords(t *testing.T) {
	for _, c := range []struct{ code, text string }{
		{"ar", "ما هو الذي"},
		{"el", "το του της"},
		{"hi", "हैं करने"},
		{"fa", "این است"},
		{"th", "what is the"}, // English stop words in every chain
	} {
		if got := termsOf(c.code, c.text); len(got) != 0 {
			t.Errorf("%s: %q → %q, want no terms", c.code, c.text, got)
		}
	}
}

func TestDetectByScript(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ทีมรับของแพนเธอร์สถอดใจที่คะแนน 308 ได้อันดับที่หกของลีก", "th"},
		{"في عام 1066 وقعت معركة هاستينغز بين جيش النورمان والإنجليز", "ar"},
		{"این کتاب را دیروز خریدم و امروز می\u200cخوانم", "fa"},
		{"Η πρώτη σειρά του αστικού κώδικα", "el"},
		{"भारत के नागरिकों को मतदान का अधिकार है", "hi"},
		// an English term inside the question does not change it
		{"วิธีติดตั้ง Docker บน Ubuntu", "th"},
		{"كيف أستخدم Kubernetes في الإنتاج", "ar"},
	} {
		if got := DetectQuery(c.text); got != c.want {
			t.Errorf("DetectQuery(%q) = %q, want %q", c.text, got, c.want)
		}
		if got := Detect(c.text); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestNamesStayEnglish: a short English passage full of Spanish-looking
// names (XQuAD en, about Southern California) was detected as Spanish.
func TestNamesStayEnglish(t *testing.T) {
	text := "Professional sports teams in Southern California include teams from the NFL (Los Angeles Rams, " +
		"San Diego Chargers); NBA (Los Angeles Lakers, Los Angeles Clippers); MLB (Los Angeles Dodgers, " +
		"Los Angeles Angels of Anaheim, San Diego Padres); NHL (Los Angeles Kings, Anaheim Ducks); and MLS (LA Galaxy)."
	if got := Detect(text); got != English {
		t.Errorf("Detect = %q, want en", got)
	}
	// Spanish prose is still Spanish, sentence-initial capitals included.
	es := "Los equipos de la ciudad juegan en el estadio. Las entradas se venden en la taquilla y los aficionados llegan temprano."
	if got := Detect(es); got != "es" {
		t.Errorf("Detect(Spanish) = %q, want es", got)
	}
}

// TestCJKIsEnglish: the Latin words of a Japanese page (code, product
// names) do not make it Portuguese or Italian; Han and kana get the
// English chain.
func TestCJKIsEnglish(t *testing.T) {
	text := "OpenTelemetryコレクターの設定ファイルでレシーバーとエクスポーターを定義します。詳細はドキュメントを参照してください。 para com uma em os"
	if got := Detect(text); got != English {
		t.Errorf("Detect = %q, want en", got)
	}
}

func TestGreekFold(t *testing.T) {
	for in, want := range map[string]string{
		"πρώτης": "πρωτησ", "ΐ": "ι", "ὁδὸς": "οδοσ", "ἀρχή": "αρχη", "α\u0301β": "αβ", "abc": "abc",
	} {
		if got := string(greekFold([]byte(in))); got != want {
			t.Errorf("greekFold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVietnamese(t *testing.T) {
	text := "Công ty của chúng tôi đã phản đối quyết định này vì nó không công bằng"
	if got := Detect(text); got != "vi" {
		t.Errorf("Detect = %q, want vi", got)
	}
	// French quoting a Vietnamese name stays French.
	fr := "Le général Võ Nguyên Giáp a dirigé les troupes pendant la bataille, et il est resté célèbre dans le pays."
	if got := Detect(fr); got != "fr" {
		t.Errorf("Detect(French) = %q, want fr", got)
	}
	got := termsOf("vi", "các công ty và những người")
	if want := []string{"công", "ty", "người"}; !slices.Equal(got, want) {
		t.Errorf("terms = %q, want %q", got, want)
	}
}

// TestRomanianIsNotVietnamese: Romanian writes ă, which Vietnamese does
// too; a Romanian paragraph stays Romanian.
func TestRomanianIsNotVietnamese(t *testing.T) {
	text := "Această echipă a câștigat campionatul în ultima săptămână, după o serie de meciuri grele în care apărarea a fost cea mai bună."
	if got := Detect(text); got != "ro" {
		t.Errorf("Detect = %q, want ro", got)
	}
}

// TestEnglishInsideScripts: an English word inside Arabic, Persian, Greek,
// Hindi or Thai text is stemmed as the English chain stems it.
func TestEnglishInsideScripts(t *testing.T) {
	for _, code := range []string{"ar", "fa", "el", "hi", "th"} {
		if got, want := termsOf(code, "databases"), termsOf(English, "databases"); !slices.Equal(got, want) {
			t.Errorf("%s: databases → %q, want %q", code, got, want)
		}
	}
}
