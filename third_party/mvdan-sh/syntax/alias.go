package syntax

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// sandsh: bash expands aliases while it reads a line, not when the
// command runs: the alias's text replaces the word in the input, so it
// can hold several commands, a comment that hides the rest of the line,
// or a keyword that changes how the rest parses (`alias arr="declare -a";
// arr x=(1 2)`). An alias defined by a line takes effect from the next
// line parsed, since the lookup happens as the parser reads.

// Aliases makes the parser expand aliases (sandsh): lookup returns the
// text of the alias named name, if any. It is called as each command word
// is read, so its answers may change between the lines of a script parsed
// with [Parser.InteractiveSeq]. Nil turns alias expansion off. The
// parser reads an alias's text through wrap, when not nil, as it reads
// its input through the reader it is given (a guard that bounds the
// parser's depth must see the alias's text too).
func Aliases(lookup func(name string) (string, bool), wrap func(io.Reader) io.Reader) ParserOption {
	return func(p *Parser) { p.aliasLookup, p.aliasWrap = lookup, wrap }
}

// aliasExp is an alias whose text the parser is reading: bash does not
// expand an alias again inside its own text.
type aliasExp struct {
	name string
	end  int64 // offset just past the text
}

// maxAliasExpansions bounds the aliases expanded in one parse, so that a
// chain of aliases that each end in a blank cannot grow the input
// without end.
const maxAliasExpansions = 10000

// expandAlias replaces the command word just read (p.tok, p.val) by its
// alias's text when it names one, and reads the first token of that
// text. It reports whether it did.
func (p *Parser) expandAlias() bool {
	if p.aliasLookup == nil || p.tok != _LitWord || p.err != nil {
		return false
	}
	if p.quote != noState && p.quote != subCmd {
		return false
	}
	// The input must continue with the rune after the word, which has
	// to be a plain byte for it to be put back.
	if p.r == escNewl || (p.r != runeEOF && p.r >= utf8.RuneSelf) {
		return false
	}
	cur := int64(p.pos.Offset())
	for len(p.aliasActive) > 0 && p.aliasActive[len(p.aliasActive)-1].end <= cur {
		p.aliasActive = p.aliasActive[:len(p.aliasActive)-1]
	}
	if len(p.aliasActive) == 0 {
		p.aliasCount = 0
	}
	for _, a := range p.aliasActive {
		if a.name == p.val {
			return false
		}
	}
	text, ok := p.aliasLookup(p.val)
	if !ok || p.aliasCount >= maxAliasExpansions {
		return false
	}
	p.aliasCount++
	var rest []byte
	if p.r != runeEOF {
		rest = append([]byte{byte(p.r)}, p.bs[p.bsp:]...)
	}
	src := io.Reader(bytes.NewReader(append([]byte(text), rest...)))
	if p.aliasWrap != nil {
		src = p.aliasWrap(src)
	}
	switch {
	case p.readErr != nil && p.readErr != io.EOF:
		src = io.MultiReader(src, errReader{p.readErr})
	case !p.readEOF:
		src = io.MultiReader(src, p.src)
	}
	p.src, p.readErr, p.readEOF = src, nil, false
	// The text takes the place of the word: it starts at the word's
	// offset, and what follows moves by the difference in length, so
	// positions keep growing.
	delta := int64(len(text) - len(p.val))
	for i := range p.aliasActive {
		p.aliasActive[i].end += delta
	}
	end := cur + int64(len(text))
	p.aliasActive = append(p.aliasActive, aliasExp{name: p.val, end: end})
	if n := len(text); n > 0 && (text[n-1] == ' ' || text[n-1] == '\t') {
		// The word after an alias that ends in a blank is checked too.
		p.aliasBlankEnd = end
	} else if p.aliasBlankEnd > cur {
		// This alias is the word an outer one ending in a blank made
		// eligible: the word after the outer text still is.
		p.aliasBlankEnd += delta
	} else {
		p.aliasBlankEnd = -1
	}
	p.bs, p.bsp = nil, 0
	p.offs, p.col = cur, int64(p.pos.Col())
	p.r, p.w = ' ', 0
	p.rune()
	p.next()
	p.aliasFirst = p.pos
	return true
}

// aliasAfterBlank is expandAlias for an argument: the word that follows
// the text of an alias ending in a blank, or the first word of an alias's
// text.
func (p *Parser) aliasAfterBlank() bool {
	if p.pos == p.aliasFirst {
		// The first word of an alias's text is checked as the alias
		// itself was.
		return p.expandAlias()
	}
	if p.aliasBlankEnd < 0 || int64(p.pos.Offset()) < p.aliasBlankEnd {
		return false
	}
	p.aliasBlankEnd = -1
	return p.expandAlias()
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
