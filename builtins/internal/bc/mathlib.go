package bc

// mathLib is the -l library, written in bc. Each function computes at a
// few extra digits and truncates to the caller's scale; the series and
// argument reductions are the classic ones POSIX bc libraries use, so
// results agree digit for digit with GNU bc. Every function first
// switches to base ten so its constants read right.
const mathLib = `
define e(x) {
	auto ib, r, neg, keep, work, halvings, num, den, k, term, sum
	if (ibase != A) { ib = ibase; ibase = A; r = e(x); ibase = ib; return (r); }
	if (x < 0) { neg = 1; x = -x }
	keep = scale
	work = 6 + keep + .44*x
	scale = scale(x) + 1
	while (x > 1) { halvings += 1; x /= 2; scale += 1 }
	scale = work
	sum = 1 + x
	num = x
	den = 1
	for (k = 2; 1; k++) {
		term = (num *= x) / (den *= k)
		if (term == 0) {
			if (halvings > 0) while (halvings--) sum = sum*sum
			scale = keep
			if (neg) return (1/sum)
			return (sum/1)
		}
		sum += term
	}
}

define l(x) {
	auto ib, r, keep, mult, k, term, y, y2, sum
	if (ibase != A) { ib = ibase; ibase = A; r = l(x); ibase = ib; return (r); }
	if (x <= 0) return ((1 - 10^scale)/1)
	keep = scale
	scale = 6 + scale
	mult = 2
	while (x >= 2) { mult *= 2; x = sqrt(x) }
	while (x <= .5) { mult *= 2; x = sqrt(x) }
	sum = y = (x-1)/(x+1)
	y2 = y*y
	for (k = 3; 1; k += 2) {
		term = (y *= y2) / k
		if (term == 0) {
			sum = mult*sum
			scale = keep
			return (sum/1)
		}
		sum += term
	}
}

define s(x) {
	auto ib, r, keep, neg, quarter, q, k, term, sq, sum
	if (ibase != A) { ib = ibase; ibase = A; r = s(x); ibase = ib; return (r); }
	keep = scale
	scale = 1.1*keep + 2
	quarter = a(1)
	if (x < 0) { neg = 1; x = -x }
	scale = 0
	q = (x / quarter + 2) / 4
	x = x - 4*q*quarter
	if (q % 2) x = -x
	scale = keep + 2
	sum = term = x
	sq = -x*x
	for (k = 3; 1; k += 2) {
		term *= sq/(k*(k-1))
		if (term == 0) {
			scale = keep
			if (neg) return (-sum/1)
			return (sum/1)
		}
		sum += term
	}
}

define c(x) {
	auto ib, r, keep
	if (ibase != A) { ib = ibase; ibase = A; r = c(x); ibase = ib; return (r); }
	keep = scale
	scale = scale*1.2
	r = s(x + a(1)*2)
	scale = keep
	return (r/1)
}

define a(x) {
	auto ib, r, sgn, keep, base, steps, k, term, y, sq, sum
	if (ibase != A) { ib = ibase; ibase = A; r = a(x); ibase = ib; return (r); }
	sgn = 1
	if (x < 0) { sgn = -1; x = -x }
	if (x == 1) {
		if (scale <= 25) return (.7853981633974483096156608/sgn)
		if (scale <= 40) return (.7853981633974483096156608458198757210492/sgn)
		if (scale <= 60) return (.785398163397448309615660845819875721049292349843776455243736/sgn)
	}
	if (x == .2) {
		if (scale <= 25) return (.1973955598498807583700497/sgn)
		if (scale <= 40) return (.1973955598498807583700497651947902934475/sgn)
		if (scale <= 60) return (.197395559849880758370049765194790293447585103787852101517688/sgn)
	}
	keep = scale
	if (x > .2) { scale = keep + 5; base = a(.2) }
	scale = keep + 3
	while (x > .2) { steps += 1; x = (x - .2) / (1 + x*.2) }
	sum = y = x
	sq = -x*x
	for (k = 3; 1; k += 2) {
		term = (y *= sq) / k
		if (term == 0) {
			scale = keep
			return ((steps*base + sum)/sgn)
		}
		sum += term
	}
}

define j(n, x) {
	auto ib, r, keep, neg, fact, k, term, sq, sum
	if (ibase != A) { ib = ibase; ibase = A; r = j(n, x); ibase = ib; return (r); }
	keep = scale
	scale = 0
	n = n/1
	if (n < 0) { n = -n; if (n % 2 == 1) neg = 1 }
	fact = 1
	for (k = 2; k <= n; k++) fact = fact*k
	scale = 1.5*keep
	fact = x^n / 2^n / fact
	sum = term = 1
	sq = -x*x/4
	scale = 1.5*keep + length(fact) - scale(fact)
	for (k = 1; 1; k++) {
		term = term * sq / k / (n + k)
		if (term == 0) {
			scale = keep
			if (neg) return (-fact*sum/1)
			return (fact*sum/1)
		}
		sum += term
	}
}
`
