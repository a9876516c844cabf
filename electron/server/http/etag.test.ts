import { describe, expect, it } from 'vitest';
import { strongEtag } from '../domain/entity-tag';
import { ifNoneMatchMatches } from './etag';

describe('strongEtag', () => {
  it('is a quoted strong tag that depends on every byte', () => {
    const tag = strongEtag('{"a":1}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(strongEtag(Buffer.from('{"a":1}'))).toBe(tag);
    expect(strongEtag('{"a":2}')).not.toBe(tag);
  });
});

describe('ifNoneMatchMatches', () => {
  const tag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc"', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['abc', false],
    ['', false],
    ['"x", "y"', false],
  ])('%s -> %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(expected);
  });
  it('matches a weak current tag weakly and ignores a missing header', () => {
    expect(ifNoneMatchMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
  });
});
