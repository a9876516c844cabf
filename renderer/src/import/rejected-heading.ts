/** "Why 2 rows were rejected: 3 problems" (a row can have more than one; the table lists each). */
export function rejectedHeading(problems: number, rows: number): string {
  const why = rows === 1 ? 'Why 1 row was rejected' : `Why ${rows.toLocaleString()} rows were rejected`;
  return problems === rows ? why : `${why}: ${problems.toLocaleString()} problems`;
}
