import { describe, expect, it } from 'vitest';
import { petsTheListCanShow } from './pet-list-query';

describe("the Pets list's count", () => {
  it('counts the pets the list can show: not those removed (deleted at the shelter, or taken away by a restore)', () => {
    expect(petsTheListCanShow({ pets: { listed: 118, unlisted: 1, local: 1, removed: 2 } })).toBe(120);
  });
});
