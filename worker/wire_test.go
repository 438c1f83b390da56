package worker

import (
	"reflect"
	"testing"
	"time"
)

// fill gives every settable exported field of v a non-zero value derived
// from seed, so that a field the wire format drops or mixes up shows.
func fill(t *testing.T, v reflect.Value, seed int) {
	t.Helper()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(seed%2 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(seed*7919 - 3))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(seed*31 + 1))
	case reflect.String:
		v.SetString("s\x00é" + string(rune('a'+seed%26)))
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), seed+i)
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(t, v.Index(i), seed+i)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, seed+i)
			fill(t, e, seed+i+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), seed)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !wireSkip(v.Type().Field(i)) {
				fill(t, v.Field(i), seed+i)
			}
		}
	default:
		t.Fatalf("fill: %s", v.Type())
	}
}

func TestWireRoundTrip(t *testing.T) {
	var p workerPayload
	fill(t, reflect.ValueOf(&p).Elem(), 1)
	if p.Options.Timeout == 0 || p.Options.Command == nil || len(p.Options.AllowNet) != 2 || p.NetFDs[1] == 0 {
		t.Fatalf("fill left fields empty: %+v", p)
	}
	data, err := encodeWire(&p)
	if err != nil {
		t.Fatal(err)
	}
	var got workerPayload
	if err := decodeWire(data, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, p)
	}
	// Nil and empty stay apart, as the runner sees them.
	p = workerPayload{Script: []byte{}, Options: Options{Env: []string{}, Timeout: 5 * time.Second}}
	data, _ = encodeWire(&p)
	got = workerPayload{}
	if err := decodeWire(data, &got); err != nil || !reflect.DeepEqual(got, p) || got.Script == nil || got.HostEnv != nil {
		t.Errorf("nil/empty round trip: %+v, %v", got, err)
	}
	// What is not sent: IO and the worker's own state.
	p = workerPayload{Options: Options{IO: IO{Getenv: func(string) string { return "x" }}, limitHit: "x"}}
	data, _ = encodeWire(&p)
	got = workerPayload{}
	if err := decodeWire(data, &got); err != nil || got.Options.IO.Getenv != nil || got.Options.limitHit != "" {
		t.Errorf("IO or unexported state sent: %+v, %v", got.Options, err)
	}
}

// Every prefix of a payload, and bytes changed in it, are errors or a
// payload, never a panic or a huge allocation.
func TestWireDecodeBad(t *testing.T) {
	var p workerPayload
	fill(t, reflect.ValueOf(&p).Elem(), 3)
	data, err := encodeWire(&p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		var got workerPayload
		if err := decodeWire(data[:i], &got); err == nil {
			t.Fatalf("prefix of %d bytes decoded", i)
		}
	}
	for i := range data {
		for _, c := range []byte{0, 1, 0x7f, 0x80, 0xff} {
			bad := append([]byte{}, data...)
			bad[i] = c
			var got workerPayload
			decodeWire(bad, &got)
		}
	}
	if err := decodeWire(append(data, 0), &workerPayload{}); err == nil {
		t.Error("trailing byte accepted")
	}
}

func FuzzWireDecode(f *testing.F) {
	data, _ := encodeWire(&workerPayload{HostEnv: map[string]string{"HOME": "/h"}, Script: []byte("echo")})
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {
		var p workerPayload
		if decodeWire(b, &p) == nil {
			again, err := encodeWire(&p)
			if err != nil {
				t.Fatal(err)
			}
			var q workerPayload
			if err := decodeWire(again, &q); err != nil || !reflect.DeepEqual(p, q) {
				t.Fatalf("re-encoded payload differs: %v", err)
			}
		}
	})
}

// The parent's and the worker's share of handing the options over.
func BenchmarkWirePayload(b *testing.B) {
	cmd := "echo hi"
	p := workerPayload{Options: Options{Command: &cmd, FS: "mem", Timeout: time.Minute, MaxMemory: "1GiB"}, HostEnv: map[string]string{"HOME": "/root"}}
	b.ReportAllocs()
	for b.Loop() {
		data, err := encodeWire(&p)
		if err != nil {
			b.Fatal(err)
		}
		var q workerPayload
		if err := decodeWire(data, &q); err != nil {
			b.Fatal(err)
		}
	}
}
