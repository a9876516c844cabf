import { describe, expect, it } from 'vitest';
import { readPhotoLink } from './photo-link';

describe('a photo link as staff type it', () => {
  it('keeps a web address as written', () => {
    expect(readPhotoLink(' https://example.org/rex.jpg ')).toEqual({ url: 'https://example.org/rex.jpg' });
    expect(readPhotoLink('http://example.org/a b.jpg')).toEqual({ url: 'http://example.org/a b.jpg' });
  });

  it('adds https:// to an address copied or typed without it', () => {
    expect(readPhotoLink('example.org/rex.jpg')).toEqual({ url: 'https://example.org/rex.jpg' });
    expect(readPhotoLink('www.example.org/pets/rex.jpg?size=2')).toEqual({
      url: 'https://www.example.org/pets/rex.jpg?size=2',
    });
    expect(readPhotoLink('//cdn.example.org/rex.jpg')).toEqual({ url: 'https://cdn.example.org/rex.jpg' });
    expect(readPhotoLink('photos.example.org:8443/rex.jpg')).toEqual({
      url: 'https://photos.example.org:8443/rex.jpg',
    });
  });

  it('refuses what is not a web address, saying what to do', () => {
    expect(readPhotoLink('ftp://example.org/rex.jpg')).toEqual({
      problem: 'A photo link starts with https://',
    });
    expect(readPhotoLink('file:///C:/photos/rex.jpg')).toEqual({
      problem: 'A photo link starts with https://',
    });
    expect(readPhotoLink('rex')).toMatchObject({ problem: expect.stringContaining('not a web address') });
    expect(readPhotoLink('')).toMatchObject({ problem: expect.stringContaining('not a web address') });
  });
});
