package wordpiece

import (
	"encoding/json"
	"fmt"
)

// tokenizerJSON is the part of a Hugging Face tokenizer.json this package
// reads.
type tokenizerJSON struct {
	AddedTokens []struct {
		Content    string `json:"content"`
		Special    bool   `json:"special"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
	} `json:"added_tokens"`
	Normalizer *struct {
		Type               string `json:"type"`
		CleanText          bool   `json:"clean_text"`
		HandleChineseChars bool   `json:"handle_chinese_chars"`
		StripAccents       *bool  `json:"strip_accents"`
		Lowercase          bool   `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type          string         `json:"type"`
		UnkToken      string         `json:"unk_token"`
		Prefix        string         `json:"continuing_subword_prefix"`
		MaxInputChars int            `json:"max_input_chars_per_word"`
		Vocab         map[string]int `json:"vocab"`
	} `json:"model"`
}

// ParseJSON reads a Hugging Face tokenizer.json of a BERT-style tokenizer
// (WordPiece model, BertNormalizer, BertPreTokenizer) into its vocabulary,
// as BuildVocab lays it out, and its options.
func ParseJSON(data []byte) (vocab []byte, opt Options, err error) {
	var tj tokenizerJSON
	if err := json.Unmarshal(data, &tj); err != nil {
		return nil, opt, fmt.Errorf("tokenizer.json: %w", err)
	}
	if tj.Model.Type != "WordPiece" {
		return nil, opt, fmt.Errorf("tokenizer.json: model %q: %w", tj.Model.Type, errNotWordPiece)
	}
	if tj.Normalizer == nil || tj.Normalizer.Type != "BertNormalizer" {
		return nil, opt, fmt.Errorf("tokenizer.json: want a BertNormalizer: %w", errNotWordPiece)
	}
	if tj.PreTokenizer == nil || tj.PreTokenizer.Type != "BertPreTokenizer" {
		return nil, opt, fmt.Errorf("tokenizer.json: want a BertPreTokenizer: %w", errNotWordPiece)
	}
	n := tj.Normalizer
	opt = Options{
		Lowercase: n.Lowercase, StripAccents: n.Lowercase, ChineseChars: n.HandleChineseChars,
		CleanText: n.CleanText, MaxWordChars: tj.Model.MaxInputChars, Prefix: tj.Model.Prefix,
		Unknown: tj.Model.UnkToken,
	}
	if n.StripAccents != nil {
		opt.StripAccents = *n.StripAccents
	}
	for _, a := range tj.AddedTokens {
		if a.SingleWord || a.LStrip || a.RStrip || a.Normalized {
			return nil, opt, fmt.Errorf("tokenizer.json: added token %q: only plain added tokens are supported", a.Content)
		}
		opt.Specials = append(opt.Specials, a.Content)
	}
	tokens, err := ordered(tj.Model.Vocab)
	if err != nil {
		return nil, opt, fmt.Errorf("tokenizer.json: %w", err)
	}
	vocab, err = BuildVocab(tokens)
	return vocab, opt, err
}

// ordered lists a token → id map by id; the ids must be 0 … len-1.
func ordered(m map[string]int) ([]string, error) {
	tokens := make([]string, len(m))
	for t, id := range m {
		if id < 0 || id >= len(m) || tokens[id] != "" {
			return nil, fmt.Errorf("vocabulary ids are not 0 to %d, each once (token %q has %d)", len(m)-1, t, id)
		}
		tokens[id] = t
	}
	return tokens, nil
}

// FromJSON returns the tokenizer a tokenizer.json describes.
func FromJSON(data []byte) (*Tokenizer, error) {
	b, opt, err := ParseJSON(data)
	if err != nil {
		return nil, err
	}
	v, err := OpenVocab(string(b))
	if err != nil {
		return nil, err
	}
	return New(v, opt)
}
