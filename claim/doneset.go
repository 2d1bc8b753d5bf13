package claim

import (
	"crypto/sha256"
	"encoding/binary"
)

// keyDigest is what Memory keeps of a done key: the first
// 128 bits of its SHA-256 (two of a billion keys sharing them: below
// 10^-20).
type keyDigest [16]byte

func digest(key string) keyDigest {
	var buf [128]byte // keys up to 128 bytes are hashed without allocating
	sum := sha256.Sum256(append(buf[:0], key...))
	return keyDigest(sum[:16])
}

// doneRecord is one processed key and when it is forgotten.
type doneRecord struct {
	key     keyDigest
	expires int64 // Unix nanoseconds
}

// doneSet is the done keys of a Memory store: records in the
// order they were made (about expiry order: a record whose keep is shorter
// than an older one's waits behind it, still bounded by the store's size)
// and an open-addressing index from digest to record, about 35 bytes per key
// (a Go map would take twice that). recs[head:] are not yet forgotten; a
// record is live while the index points at it. A key recorded again, or
// found expired by Claim, leaves a stale record, dropped at the head or
// when stale records outnumber live ones. Guarded by the store's
// mutex.
type doneSet struct {
	recs  []doneRecord
	head  int
	n     int      // live records: the index's entries
	index []uint32 // 0: empty; else 1 + the record's position in recs
}

// minIndex is the smallest index size (a power of two).
const minIndex = 16

// maxDoneEntries keeps record positions (below about 4×MaxEntries+2048)
// within the index's uint32 entries.
const maxDoneEntries = 1 << 28

func (s *doneSet) home(k keyDigest) int {
	return int(binary.LittleEndian.Uint64(k[:8]) & uint64(len(s.index)-1))
}

// find returns the index slot holding k, or -1.
func (s *doneSet) find(k keyDigest) int {
	if len(s.index) == 0 {
		return -1
	}
	mask := len(s.index) - 1
	for i := s.home(k); ; i = (i + 1) & mask {
		p := s.index[i]
		if p == 0 {
			return -1
		}
		if s.recs[p-1].key == k {
			return i
		}
	}
}

// lookup returns the live record of k.
func (s *doneSet) lookup(k keyDigest) (doneRecord, bool) {
	if i := s.find(k); i >= 0 {
		return s.recs[s.index[i]-1], true
	}
	return doneRecord{}, false
}

// forget takes k out of the index; its record becomes stale.
func (s *doneSet) forget(k keyDigest) {
	i := s.find(k)
	if i < 0 {
		return
	}
	s.n--
	mask := len(s.index) - 1
	// Backward-shift deletion keeps every entry reachable from its home
	// slot without tombstones.
	s.index[i] = 0
	for j := (i + 1) & mask; s.index[j] != 0; j = (j + 1) & mask {
		h := s.home(s.recs[s.index[j]-1].key)
		// Move the entry at j into the hole at i unless its home lies
		// cyclically in (i, j].
		if (i < j && (h <= i || h > j)) || (i > j && h <= i && h > j) {
			s.index[i], s.index[j] = s.index[j], 0
			i = j
		}
	}
}

// add records k with its expiry; k must not be live.
func (s *doneSet) add(k keyDigest, expires int64) {
	if (s.n+1)*4 > len(s.index)*3 {
		s.reindex(max(minIndex, 2*len(s.index)))
	}
	s.recs = append(s.recs, doneRecord{key: k, expires: expires})
	s.insert(k, len(s.recs)-1)
	s.n++
}

func (s *doneSet) insert(k keyDigest, pos int) {
	mask := len(s.index) - 1
	i := s.home(k)
	for s.index[i] != 0 {
		i = (i + 1) & mask
	}
	s.index[i] = uint32(pos + 1)
}

// reindex rebuilds the index at size slots from the live records.
func (s *doneSet) reindex(size int) {
	old := s.index
	s.index = make([]uint32, size)
	for _, p := range old {
		if p != 0 {
			s.insert(s.recs[p-1].key, int(p-1))
		}
	}
}

// live reports whether the record at position pos is the one the index
// holds for its key.
func (s *doneSet) live(pos int) bool {
	i := s.find(s.recs[pos].key)
	return i >= 0 && int(s.index[i]-1) == pos
}

// oldest returns the record at the head, if any.
func (s *doneSet) oldest() (doneRecord, bool) {
	if s.head >= len(s.recs) {
		return doneRecord{}, false
	}
	return s.recs[s.head], true
}

// pop forgets the record at the head (its key, if it is live), and
// compacts now and then.
func (s *doneSet) pop() {
	if s.live(s.head) {
		s.forget(s.recs[s.head].key)
	}
	s.recs[s.head] = doneRecord{}
	s.head++
	if s.head >= 1024 && s.head*2 >= len(s.recs) {
		s.compact()
	}
}

// tidy drops stale records when they outnumber live ones (plus a margin),
// and shrinks an index left large by many expiries.
func (s *doneSet) tidy() {
	if len(s.recs)-s.head > 2*s.n+64 {
		s.compact()
	}
	if len(s.index) > minIndex && s.n*8 < len(s.index) {
		size := minIndex
		for (s.n+1)*4 > size*3/2 { // leave room to grow before the next rebuild
			size *= 2
		}
		s.reindex(size)
	}
}

// compact moves the live records to the start of recs, dropping stale
// ones, and rebuilds the index; a far too large backing array is replaced.
func (s *doneSet) compact() {
	// Mark the live positions first: moving records overwrites the
	// positions the index still refers to.
	keep := make([]uint64, (len(s.recs)-s.head+63)/64)
	for _, p := range s.index {
		if p != 0 {
			off := int(p-1) - s.head
			keep[off/64] |= 1 << (off % 64)
		}
	}
	n := 0
	for pos := s.head; pos < len(s.recs); pos++ {
		if off := pos - s.head; keep[off/64]&(1<<(off%64)) != 0 {
			s.recs[n] = s.recs[pos]
			n++
		}
	}
	clear(s.recs[n:])
	s.recs = s.recs[:n]
	if cap(s.recs) > 4*n+1024 {
		s.recs = append(make([]doneRecord, 0, 2*n+64), s.recs...)
	}
	s.head = 0
	clear(s.index)
	for pos := range s.recs {
		s.insert(s.recs[pos].key, pos)
	}
	s.n = n
}
