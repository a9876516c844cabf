import { describe, expect, it } from 'vitest';
import { listInWords } from './lists';

describe('listInWords', () => {
  it('joins items as a sentence does, each kept', () => {
    expect([
      listInWords([]),
      listInWords(['A']),
      listInWords(['A', 'B']),
      listInWords(['A', 'B', 'A']),
    ]).toEqual(['', 'A', 'A and B', 'A, B and A']);
  });
});
