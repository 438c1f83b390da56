package builtins

import "context"

func dataBase32() dataBasenc {
	return dataBasenc{name: "base32", alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
		inBytes: 5, outChars: 8, bits: 5}
}

func runBase32(ctx context.Context, env *Env, args []string) int {
	return dataRunBasenc(ctx, env, args, dataBase32())
}
