package expand

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// AssocKey returns the key an associative array subscript names. The
// parser cannot know that m is associative when it reads m[i+1], so it may
// hand over an arithmetic expression; bash uses the subscript's text, with
// its expansions done and its spacing kept, as the key.
func (cfg *Config) AssocKey(idx syntax.ArithmExpr) (string, error) {
	if w, ok := idx.(*syntax.Word); ok {
		return Literal(cfg, w)
	}
	return cfg.arithSource(idx, false)
}

// arithSource rebuilds the text of an arithmetic expression with its
// words expanded and the source's spacing between tokens. With sglRaw, a
// single-quoted part stays quoted, as bash's arithmetic refuses it.
func (cfg *Config) arithSource(idx syntax.ArithmExpr, sglRaw bool) (string, error) {
	var sb strings.Builder
	var last syntax.Pos
	var err error
	emit := func(pos, end syntax.Pos, text string) {
		if last.IsValid() && pos.IsValid() && pos.Offset() > last.Offset() {
			sb.WriteString(strings.Repeat(" ", int(min(pos.Offset()-last.Offset(), 64))))
		}
		sb.WriteString(text)
		last = end
	}
	var walk func(x syntax.ArithmExpr)
	walk = func(x syntax.ArithmExpr) {
		if err != nil {
			return
		}
		switch x := x.(type) {
		case *syntax.Word:
			if sglRaw && hasSglQuote(x) {
				emit(x.Pos(), x.End(), "'")
				return
			}
			if pe, ok := bareElemRef(x); ok {
				emit(pe.Param.Pos(), pe.Param.End(), pe.Param.Value)
				emit(pe.Param.End(), posAfter(pe.Param.End(), 1), "[")
				// Quotes in a subscript are removed, as for a['k'].
				saved := sglRaw
				sglRaw = false
				walk(pe.Index)
				sglRaw = saved
				emit(last, last, "]")
				return
			}
			s, e := Literal(cfg, x)
			if e != nil {
				err = e
				return
			}
			emit(x.Pos(), x.End(), s)
		case *syntax.BinaryArithm:
			walk(x.X)
			op := x.Op.String()
			emit(x.OpPos, posAfter(x.OpPos, len(op)), op)
			walk(x.Y)
		case *syntax.UnaryArithm:
			op := x.Op.String()
			if x.Post {
				walk(x.X)
				emit(x.OpPos, posAfter(x.OpPos, len(op)), op)
			} else {
				emit(x.OpPos, posAfter(x.OpPos, len(op)), op)
				walk(x.X)
			}
		case *syntax.ParenArithm:
			emit(x.Lparen, posAfter(x.Lparen, 1), "(")
			walk(x.X)
			emit(x.Rparen, posAfter(x.Rparen, 1), ")")
		}
	}
	walk(idx)
	return sb.String(), err
}

// posAfter is pos moved n bytes on, for the end of an operator token.
func posAfter(pos syntax.Pos, n int) syntax.Pos {
	if !pos.IsValid() {
		return pos
	}
	return syntax.NewPos(pos.Offset()+uint(n), pos.Line(), pos.Col()+uint(n))
}

func hasSglQuote(w *syntax.Word) bool {
	for _, wp := range w.Parts {
		if _, ok := wp.(*syntax.SglQuoted); ok {
			return true
		}
	}
	return false
}

// bareElemRef returns the a[i] of an arithmetic word that is an element
// reference without a dollar.
func bareElemRef(w *syntax.Word) (*syntax.ParamExp, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Dollar.IsValid() || pe.Param == nil || pe.Index == nil {
		return nil, false
	}
	return pe, true
}
