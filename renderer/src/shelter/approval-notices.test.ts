import { describe, expect, it } from 'vitest';
import { firstToPlace, notYetAvailableNotice } from './approval-notices';

describe('approving an application', () => {
  it('ticks the first pet Available to begin with, else the first not yet placed', () => {
    const pet = (name: string, status: string) => ({ name, status });
    expect(firstToPlace([pet('Biscut', 'intake'), pet('Pepper', 'available')])?.name).toBe('Pepper');
    expect(firstToPlace([pet('Chester', 'available'), pet('Sunny', 'available')])?.name).toBe('Chester');
    expect(firstToPlace([pet('Rex', 'adopted'), pet('Mia', 'hold')])?.name).toBe('Mia');
    expect(firstToPlace([pet('Rex', 'adopted')])?.name).toBe('Rex');
    expect(firstToPlace([])).toBeUndefined();
  });

  it('names pets chosen that are on hold or otherwise not available, before the approval', () => {
    expect(notYetAvailableNotice([{ name: 'Sunny', status: 'hold' }], true)).toBe(
      'Sunny’s status is Hold, not Available: approving marks Sunny adopted all the same. Check first that it is free to go.',
    );
    expect(
      notYetAvailableNotice(
        [
          { name: 'Chester', status: 'available' },
          { name: 'Sunny', status: 'hold' },
          { name: 'Rex', status: 'medicalTreatment' },
        ],
        false,
      ),
    ).toBe(
      'Sunny’s status is Hold and Rex’s status is Medical treatment, not Available: approving marks them fostered all the same. Check first that they are free to go.',
    );
  });

  it('names a pet adopted already when a foster is approved: the shelter does not refuse that one', () => {
    expect(notYetAvailableNotice([{ name: 'Max', status: 'adopted' }], false)).toBe(
      'Max’s status is Adopted, not Available: approving marks Max fostered all the same. Check first that it is free to go.',
    );
  });

  it('says nothing when every pet chosen is available, or, for an adoption, adopted (refused, and said apart)', () => {
    expect(notYetAvailableNotice([{ name: 'Chester', status: 'Available' }], true)).toBeUndefined();
    expect(notYetAvailableNotice([{ name: 'Max', status: 'adopted' }], true)).toBeUndefined();
    expect(notYetAvailableNotice([], true)).toBeUndefined();
  });
});
