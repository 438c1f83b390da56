// Copyright (c) 2018, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Braces performs brace expansion on a word, given that it contains any
// [syntax.BraceExp] parts. For example, the word with a brace expansion
// "foo{bar,baz}" will return two literal words, "foobar" and "foobaz".
//
// Note that the resulting words may share word parts.
//
// Deprecated: use [BracesSeq], which yields words lazily and reports an
// error rather than letting a large sequence allocate huge amounts.
func Braces(word *syntax.Word) []*syntax.Word {
	var all []*syntax.Word
	bracesSeqRec(word, func(w *syntax.Word) bool {
		all = append(all, w)
		return true
	})
	return all
}

// BracesSeq performs brace expansion on a word, given that it contains any
// [syntax.BraceExp] parts. For example, the word with a brace expansion
// "foo{bar,baz}" will return two literal words, "foobar" and "foobaz".
//
// The iteration yields an error and stops if the total expansion is too
// large, including combinatorial blow-ups across multiple brace expansions
// like {1..100}{1..100}{1..100}. This may be configurable with cfg in the
// future; the parameter is entirely unused for now.
//
// Note that the resulting words may share word parts.
func BracesSeq(cfg *Config, word *syntax.Word) iter.Seq2[*syntax.Word, error] {
	return func(yield func(*syntax.Word, error) bool) {
		// sandsh: the bound is cfg.MaxFields (upstream: a fixed 16Ki,
		// which stops `for i in {1..100000}`).
		limit := 0
		if cfg != nil {
			limit = cfg.MaxFields
		}
		// sandsh: a word whose expansion is known to pass the bound
		// fails before any word is made ({1..9999999999},
		// {1..10}{1..10}...): making a million words first takes
		// seconds in which the run's context is not checked.
		if limit > 0 && braceCount(word) > uint64(limit) {
			yield(nil, ErrTooManyFields)
			return
		}
		count := 0
		bracesSeqRec(word, func(w *syntax.Word) bool {
			count++
			if limit > 0 && count > limit {
				yield(nil, ErrTooManyFields)
				return false
			}
			return yield(w, nil)
		})
	}
}

// braceCount is how many words brace expansion makes of word,
// saturating at MaxUint64 (sandsh).
func braceCount(word *syntax.Word) uint64 {
	total := uint64(1)
	for _, wp := range word.Parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			continue
		}
		var n uint64
		if br.Sequence {
			n = braceSeqLen(br)
		} else {
			for _, e := range br.Elems {
				n = satAdd(n, braceCount(e))
			}
		}
		total = satMul(total, n)
	}
	return total
}

// braceSeqLen is the length of a {from..to[..step]} sequence, computed
// as bracesSeqPre walks it (letters when an end is not a number).
func braceSeqLen(br *syntax.BraceExp) uint64 {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		if fromLit == "" || toLit == "" {
			return 1
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	step := uint64(1)
	if len(br.Elems) > 2 {
		n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if n < 0 {
			n = -n
		}
		if n > 0 {
			step = uint64(n)
		}
	}
	lo, hi := min(from, to), max(from, to)
	return uint64(hi-lo)/step + 1 // hi-lo fits in uint64 even for the full int64 range
}

func satAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// bracesSeqRec yields each fully-expanded word descended from word.
// It returns false if iteration should stop.
func bracesSeqRec(word *syntax.Word, yield func(*syntax.Word) bool) bool {
	return bracesSeqPre(nil, word, yield)
}

// bracesSeqPre is bracesSeqRec for words that follow the parts in pre.
// (sandsh: upstream prepended the parts on the left to each word at each
// level on the way back up, quadratic in the number of brace expansions:
// {a,b}{a,b}... took tens of seconds to reach the field limit.) The
// recursion is depth-first, so each level may append to pre's array.
func bracesSeqPre(pre []syntax.WordPart, word *syntax.Word, yield func(*syntax.Word) bool) bool {
	left := pre
	for i, wp := range word.Parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			left = append(left, wp)
			continue
		}
		rest := word.Parts[i+1:]
		// Yield each word produced by recursing on `next`,
		// after prepending `left` to its Parts.
		expand := func(next *syntax.Word) bool {
			return bracesSeqPre(left, next, yield)
		}
		if br.Sequence {
			fromLit := br.Elems[0].Lit()
			toLit := br.Elems[1].Lit()

			chars := false
			// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
			from, err1 := strconv.ParseInt(fromLit, 10, 64)
			to, err2 := strconv.ParseInt(toLit, 10, 64)
			if err1 != nil || err2 != nil {
				chars = true
				from = int64(fromLit[0])
				to = int64(toLit[0])
			}
			// Endpoints with leading zeros pad all results to the
			// widest endpoint, e.g. {01..10} gives 01 02 [...] 09 10.
			width := 0
			if !chars && (hasLeadingZeros(fromLit) || hasLeadingZeros(toLit)) {
				width = max(len(fromLit), len(toLit))
			}
			upward := from <= to
			incr := int64(1)
			if len(br.Elems) > 2 {
				// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
				n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
				if n < 0 {
					n = -n // only the absolute value of the step matters
				}
				if n != 0 {
					incr = n
				}
			}
			if !upward {
				incr = -incr
			}
			for n := from; (upward && n <= to) || (!upward && n >= to); n += incr {
				next := *word
				lit := &syntax.Lit{}
				switch {
				case chars:
					lit.Value = string(rune(n))
				case width > 0:
					lit.Value = fmt.Sprintf("%0*d", width, n)
				default:
					lit.Value = strconv.FormatInt(n, 10)
				}
				next.Parts = append([]syntax.WordPart{lit}, rest...)
				if !expand(&next) {
					return false
				}
				// sandsh: stop rather than wrap around past the int64 range.
				if (incr > 0 && n > math.MaxInt64-incr) || (incr < 0 && n < math.MinInt64-incr) {
					break
				}
			}
			return true
		}
		for _, elem := range br.Elems {
			next := *word
			next.Parts = slices.Concat(elem.Parts, rest)
			if !expand(&next) {
				return false
			}
		}
		return true
	}
	return yield(&syntax.Word{Parts: slices.Clone(left)})
}

func hasLeadingZeros(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// rejoinParams gives a word made by brace expansion bash's reading of
// it: bash expands braces in the text and reads the result again, so a
// `$name` that a brace put before name characters takes them into its
// name ({$a,b}_c is $a_c and b_c, not A_c). (sandsh) Words made by brace
// expansion share parts: changed parts are copies.
func rejoinParams(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	for i := 0; i < len(w.Parts); i++ {
		pe, ok := w.Parts[i].(*syntax.ParamExp)
		if !ok || !pe.Short || pe.Param == nil || !shortName(pe.Param.Value) || i+1 >= len(w.Parts) {
			continue
		}
		lit, ok := w.Parts[i+1].(*syntax.Lit)
		if !ok {
			continue
		}
		n := 0
		for n < len(lit.Value) && nameByte(lit.Value[n]) {
			n++
		}
		if n == 0 {
			continue
		}
		if parts == nil {
			parts = slices.Clone(w.Parts)
		}
		npe, nparam, nlit := *pe, *pe.Param, *lit
		nparam.Value += lit.Value[:n]
		npe.Param = &nparam
		nlit.Value = lit.Value[n:]
		parts[i], parts[i+1] = &npe, &nlit
		w = &syntax.Word{Parts: parts}
		i-- // the rest of the literal may be empty, and another follow
		if nlit.Value == "" {
			parts = slices.Delete(parts, i+2, i+3)
			w.Parts = parts
		}
	}
	return w
}

// shortName reports whether s is the name of a $name expansion that
// more name characters would extend (not $1, $?, $@ ...).
func shortName(s string) bool {
	return s != "" && (s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

func nameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// unclosedBquote is the error bash gives a word whose brace expansion
// made an unescaped backquote ({Z..a} goes through '`'): bash expands
// braces in the word's text and reads the result again, where the
// backquote starts a command substitution that never closes. (sandsh)
func unclosedBquote(w *syntax.Word) error {
	for i, wp := range w.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			continue
		}
		for j := 0; j < len(lit.Value); j++ {
			switch lit.Value[j] {
			case '\\':
				j++
			case '`':
				var sb strings.Builder
				sb.WriteString(lit.Value[j:])
				printer := syntax.NewPrinter()
				for _, rest := range w.Parts[i+1:] {
					printer.Print(&sb, rest)
				}
				return &BadSubstError{Text: `no closing "` + "`" + `" in ` + sb.String(), Prefix: true}
			}
		}
	}
	return nil
}
