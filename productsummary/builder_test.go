package productsummary_test

import (
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
		s    ps.Summary
	}{
		{"retail_cart.json", retailCart()},
		{"flight_ticket.json", flightTicket()},
		{"bus_ticket.json", busTicket()},
		{"every_field.json", everyField()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			require.NoError(t, tc.s.Validate())
			got, err := tc.s.MarshalText()
			require.NoError(t, err)
			wiretest.Golden(t, tc.file, got)

			back, err := ps.Parse(string(got))
			require.NoError(t, err)
			require.Equal(t, tc.s, back, "the golden text reads back to the same summary")
		})
	}
}

// everyField uses every constructor and option once.
func everyField() ps.Summary {
	const img = "https://cdn.example.com/i.png"
	return ps.New().
		Line(ps.Spacer(), ps.Stretch(2.5), ps.Gap(12)).
		Line(ps.Label("r").Regular(), ps.Label("b").Bold(), ps.Label("s").SemiBold(), ps.Label("f").WithFont("SemiBold"),
			ps.Label("c").WithColor("#80FF0000").WithSize(11)).
		Line(ps.Picture(img), ps.Picture(img).WithSize(64)).
		Line(ps.Toggle(img, img).WithSize(18), ps.OpenIcon(img), ps.CloseIcon(img)).
		Divider(2, "").
		Line(ps.Rule(0.5).WithColor("#ccc")).
		ShadedLine("#faefd9", ps.Label("on a background")).
		EmptyLines(2).
		Summary()
}

func TestBuilderShapes(t *testing.T) {
	tests := []struct {
		name string
		b    ps.Builder
		want ps.Summary
	}{
		{"empty builder gives no summary", ps.New(), nil},
		{"zero builder works", ps.Builder{}.EmptyLine(), ps.Summary{{ps.Space{}}}},
		{"Line without items is an empty line", ps.New().Line(), ps.Summary{{ps.Space{}}}},
		{"EmptyLines", ps.New().EmptyLines(3), ps.Summary{{ps.Space{}}, {ps.Space{}}, {ps.Space{}}}},
		{"EmptyLines(0) adds none", ps.New().EmptyLines(0), nil},
		{"EmptyLines(-3) adds none", ps.New().EmptyLines(-3), nil},
		{"EmptyLines(-1) keeps what is there", ps.New().Line(ps.Label("a")).EmptyLines(-1).EmptyLines(1),
			ps.Summary{{ps.Text{Text: "a"}}, {ps.Space{}}}},
		{"Divider without colour", ps.New().Divider(1, ""), ps.Summary{{ps.Divider{Thickness: 1}}}},
		{"Divider", ps.New().Divider(2, "#D6C190"), ps.Summary{{ps.Divider{Thickness: 2, Color: "#D6C190"}}}},
		{"empty shaded line", ps.New().ShadedLine("#000"), ps.Summary{{ps.Space{}, ps.Background{Color: "#000"}}}},
		{"shaded line", ps.New().ShadedLine("#000", ps.Label("a")), ps.Summary{{ps.Text{Text: "a"}, ps.Background{Color: "#000"}}}},
		{"text options", ps.New().Line(ps.Label("a").WithSize(10).WithColor("#fff").Bold()),
			ps.Summary{{ps.Text{Text: "a", TextSize: 10, Color: "#fff", FontType: ps.Bold}}}},
		{"last font wins", ps.New().Line(ps.Label("a").Bold().Regular()), ps.Summary{{ps.Text{Text: "a", FontType: ps.Regular}}}},
		{"spaces", ps.New().Line(ps.Spacer(), ps.Stretch(1), ps.Gap(20)),
			ps.Summary{{ps.Space{}, ps.Space{Weight: 1}, ps.Space{Width: 20}}}},
		{"toggles", ps.New().Line(ps.OpenIcon("o"), ps.CloseIcon("c"), ps.Toggle("o", "c").WithSize(5)),
			ps.Summary{{ps.ToggleImage{OpenIcon: "o"}, ps.ToggleImage{CloseIcon: "c"}, ps.ToggleImage{OpenIcon: "o", CloseIcon: "c", Size: 5}}}},
		{"pointer items become values", ps.New().Line(&ps.Background{Color: "#fff"}), ps.Summary{{ps.Background{Color: "#fff"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.b.Summary())
			require.Equal(t, len(tc.want), tc.b.Len())
		})
	}
}

func TestBuilderIsImmutable(t *testing.T) {
	base := ps.New().Line(ps.Label("Order #1001"))
	require.Equal(t, 1, base.Len())

	// Two branches from one base must not see each other's lines, even
	// though appending to a shared slice with spare capacity would make
	// them overwrite each other.
	a := base.EmptyLine()
	b := base.Divider(1, "#000")
	a2 := a.Line(ps.Label("A"))
	b2 := b.Line(ps.Label("B"))
	require.Equal(t, ps.Summary{{ps.Text{Text: "Order #1001"}}}, base.Summary())
	require.Equal(t, ps.Summary{{ps.Text{Text: "Order #1001"}}, {ps.Space{}}, {ps.Text{Text: "A"}}}, a2.Summary())
	require.Equal(t, ps.Summary{{ps.Text{Text: "Order #1001"}}, {ps.Divider{Thickness: 1, Color: "#000"}}, {ps.Text{Text: "B"}}}, b2.Summary())
	require.Equal(t, 2, a.Len())

	// Item methods return modified copies.
	t1 := ps.Label("x").WithSize(10)
	t2 := t1.WithSize(20).Bold()
	require.Equal(t, 10.0, t1.TextSize)
	require.Empty(t, t1.FontType)
	require.Equal(t, 20.0, t2.TextSize)
	i1 := ps.Picture("u").WithSize(1)
	_ = i1.WithSize(2)
	require.Equal(t, 1.0, i1.Size)
	g1 := ps.Toggle("o", "c").WithSize(1)
	_ = g1.WithSize(2)
	require.Equal(t, 1.0, g1.Size)
	d1 := ps.Rule(1).WithColor("#fff")
	_ = d1.WithColor("#000")
	require.Equal(t, "#fff", d1.Color)
}

func TestBuilderSharesNothing(t *testing.T) {
	size := ps.Label("x").WithSize(10)
	items := []ps.Item{size, ps.Stretch(1)}
	b := ps.New().Line(items...).ShadedLine("#000", items...)

	// The caller changing its slice or its item values afterwards does not
	// reach the builder.
	items[0] = ps.Label("changed")
	size.TextSize = 99
	items[1] = ps.Stretch(5)

	s1 := b.Summary()
	want := ps.Summary{
		{ps.Text{Text: "x", TextSize: 10}, ps.Space{Weight: 1}},
		{ps.Text{Text: "x", TextSize: 10}, ps.Space{Weight: 1}, ps.Background{Color: "#000"}},
	}
	require.Equal(t, want, s1)

	// Changing what Summary returned does not reach the builder either.
	s1[0][0] = ps.Label("x").WithSize(1)
	s1[1][1] = ps.Stretch(2)
	s1[0][1] = ps.Spacer()
	s1[1] = nil
	require.Equal(t, want, b.Summary())
}

// TestBuilderConcurrentBranches extends one shared Builder from several
// goroutines; under -race any write to shared state would be reported.
func TestBuilderConcurrentBranches(t *testing.T) {
	base := ps.New().Line(ps.Label("shared").WithSize(12)).EmptyLine()
	const n = 8
	got := make([]ps.Summary, n)
	done := make(chan struct{})
	for i := range n {
		go func() {
			defer func() { done <- struct{}{} }()
			b := base
			for range i {
				b = b.Line(ps.Label("x"))
			}
			got[i] = b.Summary()
		}()
	}
	for range n {
		<-done
	}
	for i, s := range got {
		require.Len(t, s, 2+i)
		require.Equal(t, ps.Text{Text: "shared", TextSize: 12}, s[0][0])
	}
	require.Equal(t, 2, base.Len())
}
