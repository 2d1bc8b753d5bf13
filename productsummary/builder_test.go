package productsummary_test

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/internal/wiretest"
	ps "github.com/payorch/checkout-go/productsummary"
)

// TestGolden compares the builder's output byte for byte with testdata/.
// After -update, read the files against spec §2.6 before committing.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		file string
		s    *ps.Summary
	}{
		{"retail_cart.json", retailCart()},
		{"flight_ticket.json", flightTicket()},
		{"bus_ticket.json", busTicket()},
		{"every_field.json", everyField()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			require.NoError(t, tc.s.Validate())
			got, err := json.Marshal(tc.s)
			require.NoError(t, err)
			wiretest.Golden(t, tc.file, got)

			back, err := ps.Parse(string(got))
			require.NoError(t, err)
			require.Equal(t, *tc.s, back, "the golden text reads back to the same summary")
		})
	}
}

// everyField uses every builder method and every item field once.
func everyField() *ps.Summary {
	const img = "https://cdn.example.com/i.png"
	return ps.New().
		Line(ps.Space{}, ps.Space{Weight: 2.5}, ps.Space{Width: 12}).
		Line(ps.Text{Text: "r", FontType: ps.Regular}, ps.Text{Text: "b", FontType: ps.Bold}, ps.Text{Text: "s", FontType: ps.SemiBold},
			ps.Text{Text: "f", FontType: "SemiBold"}, ps.Text{Text: "c", Color: "#80FF0000", TextSize: 11}).
		Line(ps.Image{URL: img}, ps.Image{URL: img, Size: 64}).
		Line(ps.ToggleImage{OpenIcon: img, CloseIcon: img, Size: 18}, ps.ToggleImage{OpenIcon: img}, ps.ToggleImage{CloseIcon: img}).
		Divider(2, "").
		Line(ps.Divider{Thickness: 0.5, Color: "#ccc"}).
		ShadedLine("#faefd9", ps.Text{Text: "on a background"}).
		EmptyLines(2)
}

func TestBuilderShapes(t *testing.T) {
	var nilSummary *ps.Summary
	tests := []struct {
		name string
		s    *ps.Summary
		want ps.Summary
	}{
		{"New is empty and not sent", ps.New(), nil},
		{"Line without items is an empty line", ps.New().Line(), ps.Summary{{ps.Space{}}}},
		{"a nil summary starts a new one", nilSummary.EmptyLine(), ps.Summary{{ps.Space{}}}},
		{"a nil summary's EmptyLines", nilSummary.EmptyLines(1), ps.Summary{{ps.Space{}}}},
		{"EmptyLines", ps.New().EmptyLines(3), ps.Summary{{ps.Space{}}, {ps.Space{}}, {ps.Space{}}}},
		{"EmptyLines(0) adds none", ps.New().EmptyLines(0), nil},
		{"EmptyLines(-3) adds none", ps.New().EmptyLines(-3), nil},
		{"EmptyLines(-1) keeps what is there", ps.New().Line(ps.Text{Text: "a"}).EmptyLines(-1).EmptyLines(1),
			ps.Summary{{ps.Text{Text: "a"}}, {ps.Space{}}}},
		{"Divider without colour", ps.New().Divider(1, ""), ps.Summary{{ps.Divider{Thickness: 1}}}},
		{"Divider", ps.New().Divider(2, "#D6C190"), ps.Summary{{ps.Divider{Thickness: 2, Color: "#D6C190"}}}},
		{"empty shaded line", ps.New().ShadedLine("#000"), ps.Summary{{ps.Space{}, ps.Background{Color: "#000"}}}},
		{"shaded line", ps.New().ShadedLine("#000", ps.Text{Text: "a"}), ps.Summary{{ps.Text{Text: "a"}, ps.Background{Color: "#000"}}}},
		{"pointer items become values", ps.New().Line(&ps.Background{Color: "#fff"}).ShadedLine("#000", &ps.Space{Width: 2}),
			ps.Summary{{ps.Background{Color: "#fff"}}, {ps.Space{Width: 2}, ps.Background{Color: "#000"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NotNil(t, tc.s)
			require.Equal(t, tc.want, *tc.s)
		})
	}
}

// TestBuilderChangesInPlace: every method changes the summary it is called
// on and returns that same pointer, so a call on its own line is not lost.
func TestBuilderChangesInPlace(t *testing.T) {
	s := ps.New()
	s.Line(ps.Text{Text: "Order #1001"})
	s.EmptyLine()
	s.EmptyLines(1)
	s.Divider(1, "#000")
	s.ShadedLine("#fff", ps.Text{Text: "x"})
	require.Equal(t, ps.Summary{
		{ps.Text{Text: "Order #1001"}},
		{ps.Space{}},
		{ps.Space{}},
		{ps.Divider{Thickness: 1, Color: "#000"}},
		{ps.Text{Text: "x"}, ps.Background{Color: "#fff"}},
	}, *s)

	require.Same(t, s, s.Line(ps.Space{}))
	require.Same(t, s, s.EmptyLine())
	require.Same(t, s, s.EmptyLines(2))
	require.Same(t, s, s.Divider(1, ""))
	require.Same(t, s, s.ShadedLine("#000"))
	require.Len(t, *s, 11)
}

// TestBuilderClone: Clone gives branches that share nothing, even though
// appending to a shared slice with spare capacity would make them overwrite
// each other.
func TestBuilderClone(t *testing.T) {
	base := ps.New().Line(ps.Text{Text: "Order #1001"}).EmptyLines(2) // spare capacity after 3 appends
	require.Greater(t, cap(*base), len(*base))
	a := base.Clone().Line(ps.Text{Text: "A"})
	b := base.Clone().Divider(1, "#000")
	head := ps.Summary{{ps.Text{Text: "Order #1001"}}, {ps.Space{}}, {ps.Space{}}}
	require.Equal(t, head, *base)
	require.Equal(t, append(*head.Clone(), ps.Line{ps.Text{Text: "A"}}), *a)
	require.Equal(t, append(*head.Clone(), ps.Line{ps.Divider{Thickness: 1, Color: "#000"}}), *b)

	// Changing a clone's items does not reach the original either.
	(*a)[0][0] = ps.Text{Text: "changed"}
	require.Equal(t, ps.Text{Text: "Order #1001"}, (*base)[0][0])

	var none *ps.Summary
	require.Nil(t, none.Clone())
	require.Equal(t, ps.Summary(nil), *ps.New().Clone())
}

func TestBuilderSharesNothing(t *testing.T) {
	size := ps.Text{Text: "x", TextSize: 10}
	items := []ps.Item{size, &ps.Space{Weight: 1}}
	s := ps.New().Line(items...).ShadedLine("#000", items...)

	// The caller changing its slice or its item values afterwards does not
	// reach the summary.
	items[0] = ps.Text{Text: "changed"}
	items[1].(*ps.Space).Weight = 5
	size.TextSize = 99

	require.Equal(t, ps.Summary{
		{ps.Text{Text: "x", TextSize: 10}, ps.Space{Weight: 1}},
		{ps.Text{Text: "x", TextSize: 10}, ps.Space{Weight: 1}, ps.Background{Color: "#000"}},
	}, *s)
}

// TestBuilderConcurrentClones extends clones of one shared summary from
// several goroutines; under -race any write to shared state would be
// reported.
func TestBuilderConcurrentClones(t *testing.T) {
	base := ps.New().Line(ps.Text{Text: "shared", TextSize: 12}).EmptyLine()
	const n = 8
	got := make([]*ps.Summary, n)
	done := make(chan struct{})
	for i := range n {
		go func() {
			defer func() { done <- struct{}{} }()
			s := base.Clone()
			for range i {
				s.Line(ps.Text{Text: "x"})
			}
			got[i] = s
		}()
	}
	for range n {
		<-done
	}
	for i, s := range got {
		require.Len(t, *s, 2+i)
		require.Equal(t, ps.Text{Text: "shared", TextSize: 12}, (*s)[0][0])
	}
	require.Len(t, *base, 2)
}

// chain builds a summary of n three-item lines by chaining, as a merchant
// would for a long order.
func chain(n int) *ps.Summary {
	s := ps.New()
	for range n {
		s = s.Line(ps.Text{Text: "Item"}, ps.Space{Weight: 1}, ps.Text{Text: "₹10.00"})
	}
	return s
}

// TestBuilderIsLinear: building by chaining allocates in proportion to the
// number of lines. Eight times the lines allocate about ten times the bytes
// (append grows a long slice by less than double, so the copies it leaves
// behind add a bounded factor); a builder that copied the summary on every
// call, as the immutable Builder did, allocates about 63 times as much.
// Bytes, not time, so the test does not depend on the machine's load.
func TestBuilderIsLinear(t *testing.T) {
	small, large := allocBytes(func() { chain(1000) }), allocBytes(func() { chain(8000) })
	require.Less(t, float64(large)/float64(small), 16.0, "1,000 lines: %d bytes, 8,000 lines: %d bytes", small, large)
}

// allocBytes returns the fewest bytes f allocated over three runs.
func allocBytes(f func()) uint64 {
	var least uint64
	for i := range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; i == 0 || n < least {
			least = n
		}
	}
	return least
}
