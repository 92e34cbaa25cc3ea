// Package ocrtest finds the tesseract program the OCR tests run: the
// variable AUTORAG_OCR_COMMAND, else tesseract on PATH, else the copy
// `make ocr` unpacks into the user cache directory for a user who is not
// root (autorag/tesseract/tesseract, a script that sets its libraries and
// data). A test that finds none fails and says to run `make ocr`: the
// OCR tests never skip.
//
// It is imported by tests only, and imports nothing of the module.
package ocrtest
