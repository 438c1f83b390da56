// Package diff computes line differences the way GNU diff does: identical
// prefix and suffix stripped, lines without a match in the other file
// discarded, Myers' O(ND) divide-and-conquer with a cost cap, then change
// groups slid to GNU's canonical positions. Following GNU's steps matters
// because many edit scripts are minimal and users compare outputs.
package diff

import "context"

// Change is one group of changed lines: A[A0:A0+Del] became B[B0:B0+Ins]
// (0-based line indexes).
type Change struct {
	A0, Del, B0, Ins int
}

// Compare returns the changes turning a into b, where a and b are line
// equivalence classes (equal ints mean equal lines). horizon is how many
// lines of the common prefix and suffix stay in play for sliding changes
// (GNU keeps as many as the context it prints).
func Compare(ctx context.Context, a, b []int32, horizon int) []Change {
	// Strip the common prefix and suffix like GNU's find_identical_ends,
	// so later sliding moves a change at most horizon lines into them.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	pre = max(0, pre-horizon)
	suf = max(0, suf-horizon)
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	ch := [2][]bool{make([]bool, len(ma)+2), make([]bool, len(mb)+2)}
	// ch[f][i+1] is line i; index 0 and len+1 are sentinels.
	c := newComparer(ctx, ma, mb, ch)
	c.run()
	shiftBoundaries([2][]int32{ma, mb}, ch)
	changes := buildScript(ch, len(ma), len(mb))
	for i := range changes {
		changes[i].A0 += pre
		changes[i].B0 += pre
	}
	return changes
}

type comparer struct {
	ctx          context.Context
	xv, yv       []int32 // undiscarded lines
	xidx, yidx   []int   // their indexes in the full middle
	ch           [2][]bool
	fd, bd       []int // diagonal vectors, offset by doff
	doff         int
	tooExpensive int
	steps        int
}

func newComparer(ctx context.Context, a, b []int32, ch [2][]bool) *comparer {
	c := &comparer{ctx: ctx, ch: ch}
	c.xv, c.xidx, c.yv, c.yidx = discardConfusing(a, b, ch)
	n := len(c.xv) + len(c.yv) + 3
	c.fd = make([]int, n)
	c.bd = make([]int, n)
	c.doff = len(c.yv) + 1
	diags := n
	te := 1
	for ; diags != 0; diags >>= 2 {
		te <<= 1
	}
	c.tooExpensive = max(4096, te)
	return c
}

func (c *comparer) run() {
	c.compareseq(0, len(c.xv), 0, len(c.yv), false)
}

func (c *comparer) noteDelete(x int) { c.ch[0][c.xidx[x]+1] = true }
func (c *comparer) noteInsert(y int) { c.ch[1][c.yidx[y]+1] = true }

func (c *comparer) compareseq(xoff, xlim, yoff, ylim int, minimal bool) {
	xv, yv := c.xv, c.yv
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			c.noteInsert(yoff)
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			c.noteDelete(xoff)
		}
	default:
		if c.ctx.Err() != nil {
			// Cancelled: mark the rest changed so callers finish fast.
			for ; xoff < xlim; xoff++ {
				c.noteDelete(xoff)
			}
			for ; yoff < ylim; yoff++ {
				c.noteInsert(yoff)
			}
			return
		}
		xmid, ymid, lo, hi := c.diag(xoff, xlim, yoff, ylim, minimal)
		c.compareseq(xoff, xmid, yoff, ymid, lo)
		c.compareseq(xmid, xlim, ymid, ylim, hi)
	}
}

// diag finds the midpoint of the shortest edit script for the given
// ranges, searching from both ends at once (Myers' middle snake). When
// the cost passes tooExpensive it settles for the best point so far.
func (c *comparer) diag(xoff, xlim, yoff, ylim int, minimal bool) (xmid, ymid int, lo, hi bool) {
	fd, bd, o := c.fd, c.bd, c.doff
	xv, yv := c.xv, c.yv
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	const maxInt = int(^uint(0) >> 1)
	fd[o+fmid] = xoff
	bd[o+bmid] = xlim
	for cost := 1; ; cost++ {
		if fmin > dmin {
			fmin--
			fd[o+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[o+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[o+d-1], fd[o+d+1]
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[o+d] = x
			if odd && bmin <= d && d <= bmax && bd[o+d] <= x {
				return x, y, true, true
			}
		}
		if bmin > dmin {
			bmin--
			bd[o+bmin-1] = maxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[o+bmax+1] = maxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[o+d-1], bd[o+d+1]
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[o+d] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[o+d] {
				return x, y, true, true
			}
		}
		if minimal {
			continue
		}
		if cost >= c.tooExpensive || (cost&1023 == 0 && c.ctx.Err() != nil) {
			fxybest, fxbest := -1, 0
			for d := fmax; d >= fmin; d -= 2 {
				x := min(fd[o+d], xlim)
				y := x - d
				if ylim < y {
					x, y = ylim+d, ylim
				}
				if fxybest < x+y {
					fxybest, fxbest = x+y, x
				}
			}
			bxybest, bxbest := maxInt, 0
			for d := bmax; d >= bmin; d -= 2 {
				x := max(xoff, bd[o+d])
				y := x - d
				if y < yoff {
					x, y = yoff+d, yoff
				}
				if x+y < bxybest {
					bxybest, bxbest = x+y, x
				}
			}
			if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
				return fxbest, fxybest - fxbest, true, false
			}
			return bxbest, bxybest - bxbest, false, true
		}
	}
}

// discardConfusing drops lines that cannot match (GNU's
// discard_confusing_lines): lines absent from the other file, and very
// common lines inside runs of such lines. Dropped lines are marked
// changed; the rest are returned with their original indexes.
func discardConfusing(a, b []int32, ch [2][]bool) (xv []int32, xidx []int, yv []int32, yidx []int) {
	files := [2][]int32{a, b}
	maxc := int32(0)
	for _, f := range files {
		for _, v := range f {
			maxc = max(maxc, v)
		}
	}
	var counts [2][]int
	for f := range files {
		counts[f] = make([]int, maxc+1)
		for _, v := range files[f] {
			counts[f][v]++
		}
	}
	var discards [2][]byte
	for f := range files {
		end := len(files[f])
		d := make([]byte, end)
		other := counts[1-f]
		many := 5
		for tem := end / 64; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, v := range files[f] {
			n := other[v]
			if n == 0 {
				d[i] = 1
			} else if n > many {
				d[i] = 2
			}
		}
		discards[f] = d
	}
	for f := range files {
		cancelProvisional(discards[f])
	}
	var vs [2][]int32
	var idx [2][]int
	for f := range files {
		for i, v := range files[f] {
			if discards[f][i] == 0 {
				vs[f] = append(vs[f], v)
				idx[f] = append(idx[f], i)
			} else {
				ch[f][i+1] = true
			}
		}
	}
	return vs[0], idx[0], vs[1], idx[1]
}

// cancelProvisional keeps provisional (2) discards only in the middle of
// runs of definite (1) discards, as GNU does.
func cancelProvisional(d []byte) {
	end := len(d)
	for i := 0; i < end; i++ {
		if d[i] == 2 {
			d[i] = 0
			continue
		}
		if d[i] == 0 {
			continue
		}
		j, provisional := i, 0
		for ; j < end && d[j] != 0; j++ {
			if d[j] == 2 {
				provisional++
			}
		}
		for j > i && d[j-1] == 2 {
			j--
			d[j] = 0
			provisional--
		}
		length := j - i
		if provisional*4 > length {
			for j > i {
				j--
				if d[j] == 2 {
					d[j] = 0
				}
			}
			continue
		}
		minimum := 1
		for tem := length >> 2; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			minimum <<= 1
		}
		minimum++
		consec := 0
		for j = 0; j < length; j++ {
			if d[i+j] != 2 {
				consec = 0
			} else {
				consec++
				if minimum == consec {
					j -= consec
				} else if minimum < consec {
					d[i+j] = 0
				}
			}
		}
		consec = 0
		for j = 0; j < length; j++ {
			if j >= 8 && d[i+j] == 1 {
				break
			}
			if d[i+j] == 2 {
				consec = 0
				d[i+j] = 0
			} else if d[i+j] == 0 {
				consec = 0
			} else {
				consec++
			}
			if consec == 3 {
				break
			}
		}
		i += length - 1
		consec = 0
		for j = 0; j < length; j++ {
			if j >= 8 && d[i-j] == 1 {
				break
			}
			if d[i-j] == 2 {
				consec = 0
				d[i-j] = 0
			} else if d[i-j] == 0 {
				consec = 0
			} else {
				consec++
			}
			if consec == 3 {
				break
			}
		}
	}
}

// shiftBoundaries slides each run of changes as far up as it merges with
// earlier runs, then down, then back to line up with a change in the
// other file (GNU's shift_boundaries). ch is offset by one.
func shiftBoundaries(eq [2][]int32, ch [2][]bool) {
	for f := 0; f < 2; f++ {
		changed := ch[f][1:]
		other := ch[1-f][1:]
		// changed[-1] and other[-1] are ch[..][0]: use helpers.
		cg := func(i int) bool { return ch[f][i+1] }
		og := func(j int) bool { return ch[1-f][j+1] }
		equivs := eq[f]
		iEnd := len(equivs)
		i, j := 0, 0
		for {
			for i < iEnd && !changed[i] {
				for og(j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			i++
			for cg(i) {
				i++
			}
			for og(j) {
				j++
			}
			var runlength, corresponding int
			for {
				runlength = i - start
				for start > 0 && equivs[start-1] == equivs[i-1] {
					start--
					changed[start] = true
					i--
					changed[i] = false
					for cg(start - 1) {
						start--
					}
					j--
					for og(j) {
						j--
					}
				}
				corresponding = iEnd
				if og(j - 1) {
					corresponding = i
				}
				for i != iEnd && equivs[start] == equivs[i] {
					changed[start] = false
					start++
					changed[i] = true
					i++
					for cg(i) {
						i++
					}
					j++
					for og(j) {
						j++
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				changed[start] = true
				i--
				changed[i] = false
				j--
				for og(j) {
					j--
				}
			}
		}
		_ = other
	}
}

// buildScript turns the changed flags into change groups.
func buildScript(ch [2][]bool, n0, n1 int) []Change {
	var out []Change
	i0, i1 := 0, 0
	for i0 < n0 || i1 < n1 {
		if ch[0][i0+1] || ch[1][i1+1] {
			l0, l1 := i0, i1
			for ch[0][i0+1] {
				i0++
			}
			for ch[1][i1+1] {
				i1++
			}
			out = append(out, Change{A0: l0, Del: i0 - l0, B0: l1, Ins: i1 - l1})
		}
		i0++
		i1++
	}
	return out
}
