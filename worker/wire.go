package worker

// The worker payload's wire format. The parent and the worker are the
// same executable (/proc/self/exe), so the payload needs no field names,
// no versioning across releases and no self-description: each field of
// workerPayload (and of Options, but IO and the unexported fields) is
// written in declaration order. encoding/json did the same job, but its
// reflection (type analysis on first use, a value per field) cost about
// 0.4 ms of every `sandsh -c 'echo hi'` in the two processes together.
//
// Encoding: bool one byte; integers varints; strings and []byte a length
// and the bytes; slices, maps and pointers a presence byte (nil or not)
// then a length and the elements (a map's keys and values in turn) or
// the pointed-to value; arrays and structs their elements in order.
// Other kinds are refused when encoding, so a new Options field of an
// unsupported type fails the tests instead of vanishing on the way.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// wireMagic starts every payload, so that a payload from something else
// fails at once.
const wireMagic = 0x5a

// wireSkip reports whether a struct field is not sent: unexported fields
// (the worker's own state) and fields tagged `wire:"-"` (Options.IO).
func wireSkip(f reflect.StructField) bool {
	return !f.IsExported() || f.Tag.Get("wire") == "-"
}

// encodeWire encodes *v (v is a pointer, as for decodeWire).
func encodeWire(v any) ([]byte, error) {
	b := []byte{wireMagic}
	return appendWire(b, reflect.ValueOf(v).Elem())
}

func appendWire(b []byte, v reflect.Value) ([]byte, error) {
	var err error
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1), nil
		}
		return append(b, 0), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return binary.AppendUvarint(b, v.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return binary.AppendUvarint(b, math.Float64bits(v.Float())), nil
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		return append(b, v.String()...), nil
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(v.Len()))
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return append(b, v.Bytes()...), nil
		}
		for i := 0; i < v.Len(); i++ {
			if b, err = appendWire(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return b, nil
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if b, err = appendWire(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return b, nil
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(v.Len()))
		it := v.MapRange()
		for it.Next() {
			if b, err = appendWire(b, it.Key()); err != nil {
				return nil, err
			}
			if b, err = appendWire(b, it.Value()); err != nil {
				return nil, err
			}
		}
		return b, nil
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), nil
		}
		return appendWire(append(b, 1), v.Elem())
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if wireSkip(t.Field(i)) {
				continue
			}
			if b, err = appendWire(b, v.Field(i)); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", t.Name(), t.Field(i).Name, err)
			}
		}
		return b, nil
	}
	return nil, fmt.Errorf("wire: cannot encode a %s", v.Type())
}

var errWireShort = errors.New("wire: truncated payload")

// wireDecoder reads what appendWire wrote. Every length is checked
// against the bytes left, so a bad payload is an error, never a huge
// allocation or a panic.
type wireDecoder struct{ b []byte }

// decodeWire decodes data into *v.
func decodeWire(data []byte, v any) error {
	if len(data) == 0 || data[0] != wireMagic {
		return errors.New("wire: not a worker payload")
	}
	d := &wireDecoder{data[1:]}
	if err := d.value(reflect.ValueOf(v).Elem()); err != nil {
		return err
	}
	if len(d.b) != 0 {
		return fmt.Errorf("wire: %d bytes left over", len(d.b))
	}
	return nil
}

func (d *wireDecoder) byte1() (byte, error) {
	if len(d.b) == 0 {
		return 0, errWireShort
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c, nil
}

func (d *wireDecoder) uvarint() (uint64, error) {
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		return 0, errWireShort
	}
	d.b = d.b[n:]
	return x, nil
}

// length reads a length and checks that at least min bytes per element
// are left for it.
func (d *wireDecoder) length(min int) (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(d.b)) || (min > 0 && n*uint64(min) > uint64(len(d.b))) {
		return 0, errWireShort
	}
	return int(n), nil
}

func (d *wireDecoder) value(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Bool:
		c, err := d.byte1()
		v.SetBool(c != 0)
		return err
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, n := binary.Varint(d.b)
		if n <= 0 {
			return errWireShort
		}
		d.b = d.b[n:]
		if v.OverflowInt(x) {
			return fmt.Errorf("wire: %d overflows %s", x, v.Type())
		}
		v.SetInt(x)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x, err := d.uvarint()
		if err == nil && v.OverflowUint(x) {
			err = fmt.Errorf("wire: %d overflows %s", x, v.Type())
		}
		if err == nil {
			v.SetUint(x)
		}
		return err
	case reflect.Float32, reflect.Float64:
		x, err := d.uvarint()
		v.SetFloat(math.Float64frombits(x))
		return err
	case reflect.String:
		n, err := d.length(1)
		if err != nil {
			return err
		}
		v.SetString(string(d.b[:n]))
		d.b = d.b[n:]
		return nil
	case reflect.Slice:
		if present, err := d.byte1(); err != nil || present == 0 {
			return err
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			n, err := d.length(1)
			if err != nil {
				return err
			}
			v.SetBytes(append([]byte{}, d.b[:n]...))
			d.b = d.b[n:]
			return nil
		}
		n, err := d.length(1) // every element takes at least a byte
		if err != nil {
			return err
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			if err := d.value(s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := d.value(v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if present, err := d.byte1(); err != nil || present == 0 {
			return err
		}
		n, err := d.length(2) // a key and a value, at least a byte each
		if err != nil {
			return err
		}
		t := v.Type()
		m := reflect.MakeMapWithSize(t, n)
		for i := 0; i < n; i++ {
			k, e := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			if err := d.value(k); err != nil {
				return err
			}
			if err := d.value(e); err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
		return nil
	case reflect.Pointer:
		if present, err := d.byte1(); err != nil || present == 0 {
			return err
		}
		p := reflect.New(v.Type().Elem())
		if err := d.value(p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if wireSkip(t.Field(i)) {
				continue
			}
			if err := d.value(v.Field(i)); err != nil {
				return fmt.Errorf("%s.%s: %w", t.Name(), t.Field(i).Name, err)
			}
		}
		return nil
	}
	return fmt.Errorf("wire: cannot decode a %s", v.Type())
}
