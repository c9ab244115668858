package xsession

// The typed side of the conformance replay: every JSON output a step produces is decoded through
// the typed API, encoded again with encoding/json and compared with the library's bytes as JSON
// values (objects order-insensitively). A field a type drops, renames or mistypes fails the case.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// rawOf is a typed result's Raw (nil for a nil pointer: a call that failed).
func rawOf(v any) []byte {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	return rv.FieldByName("Raw").Interface().(json.RawMessage)
}

// roundTrip checks that typed, the typed API's value for the output raw, encodes back to raw.
func (r *caseRunner) roundTrip(what string, typed any, raw []byte) bool {
	r.t.Helper()
	enc, err := json.Marshal(typed)
	if err != nil {
		r.t.Errorf("%s: the typed value does not encode: %v", what, err)
		return false
	}
	if unordered(r.t, enc) != unordered(r.t, raw) {
		r.t.Errorf("%s: the typed value differs from the library's JSON\ntyped   %s\nlibrary %s", what, enc, raw)
		return false
	}
	return true
}

// typedArray checks an array reader: its ...JSON bytes against the step's "json", and the same
// bytes decoded as the typed reader decodes them.
func typedArray[T any](read func(r *caseRunner, s step) ([]byte, error)) caseOp {
	return func(r *caseRunner, s step, expect Code) bool {
		raw, err := read(r, s)
		if !r.checkText(s, "json", expect, raw, err) {
			return false
		}
		return err != nil || r.decodedRoundTrip(reflect.TypeOf([]T(nil)).String(), raw, decodeResult[[]T])
	}
}

// decodedRoundTrip decodes raw with the typed API's decoder and checks the round trip.
func (r *caseRunner) decodedRoundTrip(what string, raw []byte, decode any) bool {
	r.t.Helper()
	out := reflect.ValueOf(decode).Call([]reflect.Value{reflect.ValueOf("conformance"), reflect.ValueOf(raw),
		reflect.Zero(reflect.TypeOf((*error)(nil)).Elem())})
	if err, _ := out[1].Interface().(error); err != nil {
		r.t.Errorf("%s: %v\n%s", what, err, raw)
		return false
	}
	return r.roundTrip(what, out[0].Interface(), raw)
}

// typedObject checks an object reader: its Raw against the step's "json", and its typed value.
func typedObject[T any](read func(r *caseRunner, s step) (*T, error)) caseOp {
	return func(r *caseRunner, s step, expect Code) bool {
		v, err := read(r, s)
		raw := rawOf(v)
		if !r.checkText(s, "json", expect, raw, err) {
			return false
		}
		return err != nil || r.roundTrip(reflect.TypeOf(v).String(), v, raw)
	}
}

// typedEntries also checks that an array of entries is its entries' Raw joined: each Entry keeps
// its exact line.
func (r *caseRunner) entriesKeepTheirLines(raw []byte) bool {
	entries, err := decodeResult[[]Entry]("conformance", raw, nil)
	if err != nil {
		r.t.Errorf("entries: %v", err)
		return false
	}
	parts := make([][]byte, len(entries))
	for i := range entries {
		parts[i] = entries[i].Raw
	}
	if joined := append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']'); !bytes.Equal(joined, raw) {
		r.t.Errorf("entries' Raw joined\n%s\nis not the library's\n%s", joined, raw)
		return false
	}
	return true
}

// unordered re-encodes JSON with every object's members in name order and numbers spelled as
// given, so that two documents compare as values, objects order-insensitively.
func unordered(t *testing.T, raw []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %q: %v", raw, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
