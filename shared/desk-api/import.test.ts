import { describe, expect, it } from 'vitest';
import { columnsSharingTargets } from './import';

describe('columnsSharingTargets', () => {
  it('lists each field several columns go to, with the columns in the file order, and nothing ignored', () => {
    const column = (header: string, target: string) => ({ header, target, source: 'chosen' as const });
    expect(
      columnsSharingTargets([
        column('Name', 'name'),
        column('Address', 'address'),
        column('Notes', 'ignore'),
        column('City', 'address'),
        column('Remarks', 'ignore'),
        column('Zip', 'address'),
      ]),
    ).toEqual([{ target: 'address', headers: ['Address', 'City', 'Zip'] }]);
  });
});
