import { describe, expect, it } from 'vitest';
import type { FeeRuleSetting } from '../../../shared/desk-api';
import { repeatedBaseRules, ruleMatchesNoPet } from './fee-rule-values';

const rule = (attributeType: string, attributeValue: string): FeeRuleSetting => ({
  species: 'dog',
  attributeType,
  attributeValue,
  adjustment: -25,
});

describe('a fee rule no pet can match', () => {
  it("is judged against the shelter's own statuses once they are known, never while they load", () => {
    const quietRoom = rule('status', 'Quiet Room');
    // Saved before the statuses arrived: not refused.
    expect(ruleMatchesNoPet(quietRoom, undefined)).toBe(false);
    expect(ruleMatchesNoPet(quietRoom, ['available', 'Quiet Room'])).toBe(false);
    expect(ruleMatchesNoPet(quietRoom, ['available'])).toBe(true);
    expect(ruleMatchesNoPet(rule('status', 'available'), undefined)).toBe(false);
  });

  it('refuses a stray chosen value and a blank typed one; a base rule has no value', () => {
    expect(ruleMatchesNoPet(rule('age_category', 'Baby'), undefined)).toBe(true);
    expect(ruleMatchesNoPet(rule('age_category', 'youngest'), undefined)).toBe(false);
    expect(ruleMatchesNoPet(rule('breed', '  '), undefined)).toBe(true);
    expect(ruleMatchesNoPet(rule('breed', 'Beagle'), undefined)).toBe(false);
    expect(ruleMatchesNoPet(rule('base', ''), undefined)).toBe(false);
  });
});

describe('a second base fee of a species', () => {
  it('is the later of two base rules of one species; other species and traits are not', () => {
    const base = (species: FeeRuleSetting['species']): FeeRuleSetting => ({
      species,
      attributeType: 'base',
      attributeValue: '',
      adjustment: 100,
    });
    expect([
      ...repeatedBaseRules([base('dog'), base('cat'), rule('size', 'small'), base('dog'), base('cat')]),
    ]).toEqual([3, 4]);
    expect(repeatedBaseRules([base('dog'), rule('size', 'small')]).size).toBe(0);
  });
});
