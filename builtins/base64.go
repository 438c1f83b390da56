package builtins

import "context"

func dataBase64() dataBasenc {
	return dataBasenc{name: "base64", alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
		inBytes: 3, outChars: 4, bits: 6}
}

func runBase64(ctx context.Context, env *Env, args []string) int {
	return dataRunBasenc(ctx, env, args, dataBase64())
}
