package pdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"flag"
	"fmt"
	"image"
	"os"
	"testing"

	"github.com/klippa-app/go-pdfium/requests"
)

var updateScan = flag.Bool("update-scan", false, "rewrite testdata/formats/scanned-ocr.pdf")

// scanPages are the lines of each page of the scanned fixture: page 2
// alone holds "heliotrope".
var scanPages = [][]string{
	{"Reservoir inspection report", "The north spillway was inspected in March."},
	{"Maintenance log", "The heliotrope valve was replaced on Tuesday."},
}

// scanFixture is the image-only PDF the OCR tests read
// (mirror/testdata/formats, shared with the mirror, engine and CLI tests).
const scanFixture = "../../testdata/formats/scanned-ocr.pdf"

// TestScanFixture rebuilds the scanned fixture with -update-scan: each page
// of scanPages is typeset in Helvetica by a PDF written here, rendered by
// PDFium at 200 dpi, cut to black and white, and put back as the only
// content (a 1-bit image) of a page of a new PDF: what a scanner makes.
// Without the flag it checks that the fixture holds no text layer.
func TestScanFixture(t *testing.T) {
	if *updateScan {
		var imgs []*image.Gray
		for _, lines := range scanPages {
			imgs = append(imgs, renderGray(t, textPDF(lines), 200))
		}
		if err := os.WriteFile(scanFixture, imagePDF(imgs, 200), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inst, err := instance(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	data, err := os.ReadFile(scanFixture)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	for i := range scanPages {
		txt, err := inst.GetPageText(&requests.GetPageText{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
		if err != nil || txt.Text != "" {
			t.Errorf("page %d: text layer %q, %v; want none", i+1, txt.Text, err)
		}
	}
}

// renderGray renders the first page of data in grey at dpi.
func renderGray(t *testing.T, data []byte, dpi int) *image.Gray {
	t.Helper()
	inst, err := instance(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	r, err := inst.RenderPageInDPI(&requests.RenderPageInDPI{DPI: dpi, ImageFormat: requests.RenderImageFormatGrayscale,
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Cleanup()
	g := r.Result.RenderedImage.(*image.Gray)
	out := image.NewGray(g.Bounds())
	copy(out.Pix, g.Pix)
	return out
}

// textPDF is a page of 6 by 1.5 inches (small, so that OCR in the tests
// is quick) showing lines in 16-point Helvetica.
func textPDF(lines []string) []byte {
	var content bytes.Buffer
	content.WriteString("BT /F1 16 Tf 20 TL 36 72 Td\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj T*\n", l)
	}
	content.WriteString("ET\n")
	return writePDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 432 108] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		streamObj("", content.Bytes()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	})
}

// imagePDF is one page per image, each showing only its image (1 bit per
// pixel, deflated) over a page of the image's size at dpi.
func imagePDF(imgs []*image.Gray, dpi int) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	kids := ""
	for i, img := range imgs {
		page, content, xobj := 3+3*i, 4+3*i, 5+3*i
		kids += fmt.Sprintf("%d 0 R ", page)
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		pw, ph := float64(w)*72/float64(dpi), float64(h)*72/float64(dpi)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R /Resources << /XObject << /Im0 %d 0 R >> >> >>", pw, ph, content, xobj),
			streamObj("", fmt.Appendf(nil, "q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q\n", pw, ph)),
			streamObj(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode", w, h), deflate(bits(img))))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, len(imgs))
	return writePDF(objs)
}

// bits packs img into rows of 1-bit pixels, 1 for white (grey >= 128).
func bits(img *image.Gray) []byte {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	row := (w + 7) / 8
	out := make([]byte, row*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if img.GrayAt(x, y).Y >= 128 {
				out[y*row+x/8] |= 0x80 >> (x % 8)
			}
		}
	}
	return out
}

func deflate(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// streamObj is a stream object with extra dictionary entries.
func streamObj(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// writePDF numbers objs from 1 and writes them with their cross-reference
// table.
func writePDF(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}
