import { describe, expect, it } from 'vitest';
import { rejectedHeading } from './rejected-heading';

describe('the heading over the rejected rows', () => {
  it('counts rows, and problems when a row has more than one', () => {
    expect(rejectedHeading(1, 1)).toBe('Why 1 row was rejected');
    expect(rejectedHeading(2, 2)).toBe('Why 2 rows were rejected');
    expect(rejectedHeading(3, 2)).toBe('Why 2 rows were rejected: 3 problems');
  });
});
