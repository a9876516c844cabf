/**
 * What an import gives each row when the file has no column for a field, in words, as the import screen and the
 * command line both say it. How to show pets kept off the public list differs between the two: `toShowThem` ends
 * that one.
 */
const MEANINGS: Record<string, Record<string, string>> = {
  spayed: { false: 'no, so mark those that are spayed or neutered on their page' },
  show_public: {
    true: 'yes, so the public list and your website show those in a public status',
    false: 'no, so they stay off the public list and your website',
  },
};

export function defaultedMeaning(field: string, value: string, toShowThem: string): string {
  const meaning = MEANINGS[field]?.[value] ?? value;
  return field === 'show_public' && value === 'false' ? `${meaning} ${toShowThem}` : meaning;
}
