// Package jsonobject holds the plain helpers that the payment filter
// models (packages paymentfilter and emi) share to decode and encode their
// JSON objects the way the service reads them: keys case-exact, the keys a
// type does not model kept in its Extra map and sent back after the
// modelled ones, and every problem reported at its JSON path as a
// *validation.Error.
//
// A type's UnmarshalJSON reads its keys one by one, in its own code:
//
//	obj, ok := jsonobject.Read(problems, data, path)
//	if !ok {
//		return
//	}
//	c.Enable = jsonobject.Value[bool](obj.Required("enable"), jsonobject.ABoolean)
//	c.CardBrands = jsonobject.List[string](obj.Either("cardBrands", "cardBrand"))
//	c.Extra = obj.Rest()
//
// [CaseMistake] and [Unknown] word the problem and the advice on a value
// of a known set (an enum) that the service may not see.
//
// Nothing here knows a wire key of the service or looks at a struct tag.
package jsonobject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/payorch/checkout-go/validation"
)

// Unmarshal is the body of an UnmarshalJSON method: it decodes data into a
// new T with decode (problems at paths from path) and sets *dst only when
// that succeeds. null leaves *dst unchanged, as encoding/json does for
// other types; a nil dst is an error, not a panic.
func Unmarshal[T any](dst *T, data []byte, path string, decode func(*T, *validation.Error, []byte, string)) error {
	var problems validation.Error
	if dst == nil {
		problems.Add(path, "cannot decode into a nil pointer")
		return problems.Err()
	}
	var v T
	decode(&v, &problems, data, path)
	if err := problems.Err(); err != nil || IsNull(data) {
		return err
	}
	*dst = v
	return nil
}

// Object is a JSON object being decoded: the members not read yet, its
// path, and where problems go.
type Object struct {
	problems *validation.Error
	path     string
	members  map[string]json.RawMessage
}

// Read starts decoding data at path. ok is false when there is nothing to
// decode: data is null, or it is not a JSON object (a problem is added).
func Read(problems *validation.Error, data []byte, path string) (obj *Object, ok bool) {
	if IsNull(data) {
		return nil, false
	}
	if kind := KindOf(data); kind != "an object" {
		problems.Add(path, "must be a JSON object, got "+kind)
		return nil, false
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		problems.Add(path, "not valid JSON: "+err.Error())
		return nil, false
	}
	return &Object{problems: problems, path: path, members: members}, true
}

// Member is the value of one key of an object and where it sits.
type Member struct {
	// Raw is the value, nil when the key is absent or null (null counts
	// as absent).
	Raw json.RawMessage
	// Path is the JSON path of the key, as it was given.
	Path string

	problems *validation.Error
}

// Take removes key from the members not read yet and returns its value.
func (o *Object) Take(key string) Member {
	raw := o.members[key]
	delete(o.members, key)
	if IsNull(raw) {
		raw = nil
	}
	return Member{Raw: raw, Path: validation.Join(o.path, key), problems: o.problems}
}

// Required is Take for a key the object must have: absent or null is a
// problem, which names a key of another case when there is one (keys are
// case sensitive, so it does not count).
func (o *Object) Required(key string) Member {
	_, given := o.members[key]
	m := o.Take(key)
	switch {
	case given && m.Raw == nil:
		o.problems.Add(m.Path, "required, got null")
	case !given:
		msg := `missing required key "` + key + `"`
		for _, k := range slices.Sorted(maps.Keys(o.members)) {
			if strings.EqualFold(k, key) {
				msg += ` (found "` + k + `"; keys are case sensitive)`
				break
			}
		}
		o.problems.Add(m.Path, msg)
	}
	return m
}

// Either is Take for a key the service also spells other: the value of
// whichever is given, at the key it is given as. Both in one object is a
// problem (one of the values would be lost), and neither is read.
func (o *Object) Either(key, other string) Member {
	if _, ok := o.members[other]; !ok {
		return o.Take(key)
	}
	if _, both := o.members[key]; both {
		o.Take(key)
		m := o.Take(other)
		o.problems.Add(m.Path, `both "`+key+`" and "`+other+`" are given; send only "`+key+`"`)
		return Member{Path: m.Path, problems: o.problems}
	}
	return o.Take(other)
}

// Rest returns the members not read, for Extra: nil when there are none.
func (o *Object) Rest() map[string]json.RawMessage {
	if len(o.members) == 0 {
		return nil
	}
	return o.members
}

// The kinds of JSON value a member must be, for the messages of [Value].
const (
	ABoolean = "a boolean"
	AString  = "a string"
)

// Value decodes m into a T with encoding/json, with a problem at m's path
// when it is not JSON of the kind want names (such as [ABoolean]). An
// absent m gives the zero T.
func Value[T any](m Member, want string) T {
	var v T
	if m.Raw != nil && json.Unmarshal(m.Raw, &v) != nil {
		m.problems.Add(m.Path, "must be "+want+", got "+KindOf(m.Raw))
	}
	return v
}

// Text decodes m, the string of a key sent only when it is not empty: an
// empty string is a problem (encoding would leave the key out).
func Text[S ~string](m Member) S {
	s := Value[S](m, AString)
	if s == "" && KindOf(m.Raw) == "a string" {
		m.problems.Add(m.Path, "empty string: leave the key out instead")
	}
	return s
}

// List decodes m, an array of strings, into a []T (T a string type, or a
// type read from text). When it does not decode, the problem names the
// element at fault.
func List[T any](m Member) []T {
	var list []T
	if m.Raw == nil || json.Unmarshal(m.Raw, &list) == nil {
		return list
	}
	var items []json.RawMessage
	if json.Unmarshal(m.Raw, &items) != nil {
		m.problems.Add(m.Path, "must be an array, got "+KindOf(m.Raw))
		return nil
	}
	for i, item := range items {
		var v T
		if json.Unmarshal(item, &v) != nil {
			m.problems.Add(validation.Index(m.Path, i), "must be a string, got "+KindOf(item))
		}
	}
	return nil
}

// Objects decodes m, an array of objects, element by element with decode,
// so that a problem is at the path of its element.
func Objects[T any](m Member, decode func(*T, *validation.Error, []byte, string)) []T {
	if m.Raw == nil {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(m.Raw, &items) != nil {
		m.problems.Add(m.Path, "must be an array, got "+KindOf(m.Raw))
		return nil
	}
	list := make([]T, len(items))
	for i, item := range items {
		decode(&list[i], m.problems, item, validation.Index(m.Path, i))
	}
	return list
}

// Nested decodes m, an object, with decode: nil when m is absent.
func Nested[T any](m Member, decode func(*T, *validation.Error, []byte, string)) *T {
	if m.Raw == nil {
		return nil
	}
	v := new(T)
	decode(v, m.problems, m.Raw, m.Path)
	return v
}

// IsNull reports whether data is the JSON literal null (blank space around
// it allowed).
func IsNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }

// KindOf names the JSON kind of data for a message: "an object", "an
// array", "a string", "a boolean", "null", "a number", or "nothing" when
// data is blank. It looks at the first byte only.
func KindOf(data []byte) string {
	s := bytes.TrimSpace(data)
	if len(s) == 0 {
		return "nothing"
	}
	switch s[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// AppendExtra adds to b, an object encoding/json wrote, the keys of extra
// that are not among modelled (the object's keys and other spellings),
// sorted, each value compacted and escaped as encoding/json writes a
// json.RawMessage. A value that is not JSON is an error, as it is for
// encoding/json.
func AppendExtra(b []byte, extra map[string]json.RawMessage, modelled []string) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	keep := make(map[string]json.RawMessage, len(extra))
	for k, v := range extra {
		if !slices.Contains(modelled, k) {
			keep[k] = v
		}
	}
	if len(keep) == 0 {
		return b, nil
	}
	more, err := json.Marshal(keep)
	if err != nil {
		return nil, err
	}
	if len(b) == 2 { // {}
		return more, nil
	}
	return append(append(b[:len(b)-1], ','), more[1:]...), nil
}

// CheckExtra adds, under path, the keys of extra (an object's unmodelled
// keys) that cannot be meant: one of the object's own keys (own, with
// their other spellings) set through Extra, which encoding leaves out; a
// value that is not JSON; an own key written in another case (the service
// matches keys case-exactly, so it would not see it); or, in any case, a
// key of another object of the same tree (among all()), where the service
// would not look for it (what names the object for the message). Other
// keys pass: the service knows keys the SDK does not model. Problems come
// in key order.
func CheckExtra(e *validation.Error, path string, extra map[string]json.RawMessage, own []string, what string, all func() []string) {
	if len(extra) == 0 {
		return // the common case, without sorting nothing into a new slice
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		at := validation.Join(path, k)
		switch {
		case slices.Contains(own, k):
			e.Add(at, "is a modelled key: set the field instead of Extra")
		case !json.Valid(extra[k]):
			e.Add(at, "value is not valid JSON")
		default:
			if m := foldEqual(k, own); m != "" {
				e.Add(at, `unknown key: keys are case sensitive, did you mean "`+m+`"?`)
			} else if m := foldEqual(k, all()); m != "" {
				e.Add(at, `key "`+m+`" does not belong in `+what)
			}
		}
	}
}

// foldEqual returns the first of list equal to s ignoring case, or "".
func foldEqual(s string, list []string) string {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return ""
}

// CaseMistake returns, when s is one of known written in another case,
// the message saying so, such as `unknown card type "credit": values are
// case sensitive, did you mean "CREDIT"?` (what names the kind of value),
// and "" otherwise: the service matches values case-exactly, so it would
// not see s, while a value it may know but the SDK does not passes.
func CaseMistake[S ~string](what string, s S, known []S) string {
	for _, k := range known {
		if k != s && strings.EqualFold(string(k), string(s)) {
			return "unknown " + what + ` "` + string(s) + `": values are case sensitive, did you mean "` + string(k) + `"?`
		}
	}
	return ""
}

// Unknown returns advice on s, a value of a set whose values are known
// (what names the kind of value), or "" when there is none: s is empty,
// known, or one of known in another case (which CaseMistake words). When
// s is within a small edit distance of a known value it is likely a typo,
// and the advice names that value: `unknown payment method type
// "WALLLET": likely a typo, did you mean "WALLET"?`. Otherwise there is
// advice only when closed is true (the service documents exactly these
// values), listing them. s is quoted with %.40q: at most 40 characters of
// it are shown.
func Unknown[S ~string](what string, s S, known []S, closed bool) string {
	if s == "" {
		return ""
	}
	best, bestDistance := S(""), 0
	for _, k := range known {
		if strings.EqualFold(string(k), string(s)) {
			return ""
		}
		d := distance(strings.ToUpper(string(s)), strings.ToUpper(string(k)))
		if d <= max(1, len(k)/4) && (best == "" || d < bestDistance) {
			best, bestDistance = k, d
		}
	}
	switch {
	case best != "":
		return fmt.Sprintf("unknown %s %.40q: likely a typo, did you mean %q?", what, string(s), string(best))
	case closed:
		list := make([]string, len(known))
		for i, k := range known {
			list[i] = string(k)
		}
		return fmt.Sprintf("unknown %s %.40q: the service documents %s only", what, string(s), strings.Join(list, ", "))
	}
	return ""
}

// distance is the number of single-byte insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (the optimal
// string alignment distance).
func distance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// CloneExtra copies an Extra map and the bytes of its values, for a Clone
// method; nil stays nil.
func CloneExtra(extra map[string]json.RawMessage) map[string]json.RawMessage {
	if extra == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(extra))
	for k, v := range extra {
		c[k] = bytes.Clone(v)
	}
	return c
}
