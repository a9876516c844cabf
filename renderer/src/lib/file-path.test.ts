import { describe, expect, it } from 'vitest';
import { typedFilePath } from './file-path';

describe('a file path as people paste it', () => {
  it('drops the quotes "Copy as path" puts around it, and the spaces around it', () => {
    expect(typedFilePath('"C:\\Users\\Front desk\\shelter backup.sqlite"')).toBe(
      'C:\\Users\\Front desk\\shelter backup.sqlite',
    );
    expect(typedFilePath("  '/media/usb/shelter copy.sqlite' ")).toBe('/media/usb/shelter copy.sqlite');
    expect(typedFilePath('/media/usb/plain.sqlite')).toBe('/media/usb/plain.sqlite');
  });

  it('keeps a quote that is part of the name, and says nothing is there for quotes alone', () => {
    expect(typedFilePath("/media/usb/Sam's backup.sqlite")).toBe("/media/usb/Sam's backup.sqlite");
    expect(typedFilePath('"/media/usb/mismatched.sqlite\'')).toBe('"/media/usb/mismatched.sqlite\'');
    expect(typedFilePath('""')).toBe('');
    expect(typedFilePath('   ')).toBe('');
  });
});
