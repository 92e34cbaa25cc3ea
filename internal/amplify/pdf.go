package amplify

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// PDFInputs are the PDF amplifiers, one per way a PDF can expand while it
// is read: an object stream (/Type /ObjStm, PDF 1.5) inflating to
// objStmMiB MiB, which the reader must decode whole to reach the page
// objects it holds; a page content stream inflating to contentMiB MiB of
// text-showing operators; and one such stream drawn by many pages.
func PDFInputs(objStmMiB, contentMiB int) []Input {
	return []Input{
		{"pdf object stream inflating", "objstm.pdf", func() ([]byte, error) {
			return PDF(objStmMiB<<20, []Piece{{"BT /F1 12 Tf 72 720 Td (the objstmword) Tj ET", 1}}, 1)
		}},
		{"pdf content stream inflating to text", "content.pdf", func() ([]byte, error) {
			return PDF(0, textOps(contentMiB<<20), 1)
		}},
		{"pdf content stream x pages", "pages.pdf", func() ([]byte, error) {
			return PDF(0, textOps(4<<20), 2000)
		}},
	}
}

// Piece is S repeated N times: the inflated content of a stream, never
// held whole.
type Piece struct {
	S string
	N int
}

// textOps is a content stream of about n bytes showing a word over and
// over.
func textOps(n int) []Piece {
	const show = "(amplified heronword ) Tj "
	return []Piece{{"BT /F1 12 Tf 72 720 Td ", 1}, {show, n / len(show)}, {" ET", 1}}
}

// PDF is a one-font PDF whose catalog, page tree, pages and font sit in a
// deflated object stream padded with pad bytes of spaces, whose pages all
// draw one deflated content stream (the concatenated content), and whose
// cross-reference is a stream.
func PDF(pad int, content []Piece, pages int) ([]byte, error) {
	const catalog, tree, font, contents, objstm, xref, firstPage = 1, 2, 3, 4, 5, 6, 7
	res := fmt.Sprintf("<< /Font << /F1 %d 0 R >> >>", font)
	// The objects inside the object stream: number and body.
	inner := []struct {
		n    int
		body string
	}{
		{catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", tree)},
		{font, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"},
	}
	kids := make([]string, pages)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", firstPage+i)
		inner = append(inner, struct {
			n    int
			body string
		}{firstPage + i, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources %s >>", tree, contents, res)})
	}
	inner = append(inner, struct {
		n    int
		body string
	}{tree, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages)})
	var head, objs strings.Builder
	for _, o := range inner {
		fmt.Fprintf(&head, "%d %d ", o.n, objs.Len())
		objs.WriteString(o.body + "\n")
	}
	stm, err := deflate(Piece{head.String(), 1}, Piece{objs.String(), 1}, Piece{strings.Repeat(" ", 4096), pad / 4096})
	if err != nil {
		return nil, err
	}
	cs, err := deflate(content...)
	if err != nil {
		return nil, err
	}
	size := firstPage + pages - 1
	offsets := map[int]int{}
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	obj := func(n int, dict string, data []byte) {
		offsets[n] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nstream\n", n, dict)
		out.Write(data)
		out.WriteString("\nendstream\nendobj\n")
	}
	obj(contents, fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>", len(cs)), cs)
	obj(objstm, fmt.Sprintf("<< /Type /ObjStm /N %d /First %d /Length %d /Filter /FlateDecode >>", len(inner), head.Len(), len(stm)), stm)
	// The cross-reference stream: type 1 (offset) for plain objects,
	// type 2 (object stream, index) for the ones inside it.
	var xr bytes.Buffer
	inStm := map[int]int{}
	for i, o := range inner {
		inStm[o.n] = i
	}
	offsets[xref] = out.Len()
	for n := 0; n <= size; n++ {
		switch i, ok := inStm[n]; {
		case n == 0:
			xr.Write([]byte{0, 0, 0, 0, 0, 0xff, 0xff})
		case ok:
			xr.Write([]byte{2, 0, 0, 0, objstm, byte(i >> 8), byte(i)})
		default:
			off := offsets[n]
			xr.Write([]byte{1, byte(off >> 24), byte(off >> 16), byte(off >> 8), byte(off), 0, 0})
		}
	}
	fmt.Fprintf(&out, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root %d 0 R /Length %d >>\nstream\n", xref, size+1, catalog, xr.Len())
	out.Write(xr.Bytes())
	fmt.Fprintf(&out, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", offsets[xref])
	return out.Bytes(), nil
}

// deflate is the zlib stream (PDF's FlateDecode) of the pieces in order.
func deflate(pieces ...Piece) ([]byte, error) {
	var b bytes.Buffer
	w, err := zlib.NewWriterLevel(&b, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	for _, p := range pieces {
		buf := []byte(strings.Repeat(p.S, max(1, min(p.N, 64<<10/max(1, len(p.S))))))
		for left := p.N; left > 0; {
			k := min(left, len(buf)/max(1, len(p.S)))
			if _, err := w.Write(buf[:k*len(p.S)]); err != nil {
				return nil, err
			}
			left -= k
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
