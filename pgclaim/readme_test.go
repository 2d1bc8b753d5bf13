package pgclaim_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/payorch/checkout-go/pgclaim"
)

// The README prints the migration and the example's tables as they are:
// its SQL blocks are Migration's output and the tables TestExampleFulfil
// creates.
func TestREADMEPrintsTheSQL(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	require.Contains(t, string(readme), "```sql\n"+pgclaim.Migration("checkout")+"```\n")
	require.Contains(t, string(readme), "```sql\n"+shopTables+"\n```\n")
}
