// Copyright (c) 2018, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

// Package expand is sandsh's fork of mvdan.cc/sh/v3/expand (v3.14.1):
// shell word expansion, with changes for bash fidelity and the sandbox.
//
// Changes from upstream (each marked "sandsh:" in the code):
//   - ~user never consults the host user database (os/user); ~ with HOME
//     unset asks the caller for "HOME " (the user's home, as bash falls
//     back to the user database);
//   - ${v/#pat/r} and ${v/%pat/r} anchor the pattern;
//   - ${v@Q} quotes like bash (single quotes, $'..' for control characters)
//     instead of panicking on a NUL byte;
//   - ${#assoc[@]} counts elements, and ${m[@]} lists values in the order
//     of the sorted keys so it pairs with ${!m[@]};
//   - arithmetic assigns to array elements (a[i]++, m[$k]+=1), and a value
//     that is not a number is evaluated as an expression, as in bash;
//   - ${v?} and ${v:?} with no word say bash's "parameter not set" and
//     "parameter null or not set";
//   - Config.MaxBytes bounds the string one replacement may build;
//   - \u and \U in $'...' encode as bash does (package bashutf8):
//     surrogates and values past U+10FFFF get bytes, not U+FFFD.
//
// The parser (mvdan.cc/sh/v3/syntax) and pattern package are used
// unmodified from upstream.
package expand
