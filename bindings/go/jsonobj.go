package xsession

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
)

// Objects whose members are not all ours: entries, headers and messages. Files written by other
// agents (and callers' own entry types) carry members this binding does not know, so each such
// type decodes the members it knows into typed fields and keeps every other member, as stored, in
// Extra; encoding writes both back. A known member whose value does not have its field's type
// stays in Extra as well (the field is left zero): such a file still reads whole, and the
// library's own lines never have one (typed_test.go checks that they leave Extra empty).

// member is one known member of an object: its JSON name, a pointer to the Go field, and whether
// it may be absent (an absent optional member is a nil field, or an empty string, and is not
// written back; a nil required one is written as null).
type member struct {
	name     string
	field    any
	optional bool
}

// decodeMembers reads the object raw into the known members and returns the others.
func decodeMembers(raw []byte, known []member) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, err
	}
	if all == nil { // JSON null
		return nil, &json.UnmarshalTypeError{Value: "null", Type: reflect.TypeOf(all)}
	}
	for _, m := range known {
		v, ok := all[m.name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, m.field); err != nil {
			reflect.ValueOf(m.field).Elem().Set(reflect.Zero(reflect.TypeOf(m.field).Elem()))
			continue
		}
		delete(all, m.name)
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

// encodeMembers writes the known members and extra as one object. Key order is the known
// members' then extra's in name order: the library's byte order is in Raw.
func encodeMembers(known []member, extra map[string]json.RawMessage) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(name string, v any) error {
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		enc, err := json.Marshal(v)
		b.Write(enc)
		return err
	}
	for _, m := range known {
		if _, dup := extra[m.name]; dup {
			continue // Extra wins: it holds what was stored under that name
		}
		if m.optional && isNil(m.field) {
			continue
		}
		if err := put(m.name, reflect.ValueOf(m.field).Elem().Interface()); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := put(k, extra[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// isNil says the field a pointer points at holds nil (a nil pointer, slice, map or RawMessage).
func isNil(field any) bool {
	v := reflect.ValueOf(field).Elem()
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return v.IsNil()
	case reflect.String:
		return v.Len() == 0
	}
	return false
}

// rawCopy keeps a copy of raw: the decoder's input may be reused by the caller.
func rawCopy(raw []byte) json.RawMessage {
	return append(json.RawMessage(nil), raw...)
}
